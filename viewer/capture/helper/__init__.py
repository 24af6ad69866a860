"""ncu-reader's capture helper, the program pkexec runs as root: main.py says what it does and
why, protocol.py what a client says to it and hears back."""
