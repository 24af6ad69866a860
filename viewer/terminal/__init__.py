"""The terminal's commands, with no Qt: each command's options and printer, over the words that
viewer.analysis and viewer.lesson compute (summary, roofline, metrics, advice, source, lesson,
capture); every printed piece of a file's text goes through viewer.core.terminal_text."""
