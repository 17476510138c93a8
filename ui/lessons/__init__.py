"""The lessons feature: the Lessons page's position, answers and verdicts, and the lessons' translated words."""
