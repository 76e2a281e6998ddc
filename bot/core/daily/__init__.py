"""The discard of the day: six cards and a seat, the same for everyone in a server that day."""
