"""Install files: polkit policy, .desktop, icon, MIME type, install scripts (a data package)."""
