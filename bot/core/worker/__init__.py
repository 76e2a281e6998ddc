"""The worker process: the computer's slow decisions and a review's work, made off the event
loop."""
