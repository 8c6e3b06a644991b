"""The application: command line, subcommands, configuration and the service main loop; the one
place that wires the layers together."""
