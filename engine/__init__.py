"""The UNO rules and the scorekeeper: pure Python, no I/O, no threads, no hardware."""
