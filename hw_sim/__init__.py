"""The simulated unit: mock GPIO wiring, virtual players, and a simulated microcontroller."""
