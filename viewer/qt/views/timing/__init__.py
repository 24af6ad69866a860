"""The kernel timing run and its plot."""
