"""The lesson in the window: Predict, the exercise, the T4 table, the lesson's pair."""
