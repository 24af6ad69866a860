"""The window around the views: the app's start, the main window and its menus, where it is placed,
projector mode, opening and exporting, the status and compare lines, recent files, the loading job,
the window's side of a capture, the reading page, the page before a report is open."""
