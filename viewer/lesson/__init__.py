"""The lesson in the app, without Qt: predict then reveal (reveal), the published T4 reference
(reference), the exercise (exercise), the misreads caught next to a number (misreads), which
kernels are the lesson's (pair), and what is known of a capture (capture_facts)."""
