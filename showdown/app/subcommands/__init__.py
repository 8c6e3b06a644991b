"""Subcommands of the ``showdown`` command line, one module each.

Each module here is found by :func:`showdown.app.cli.build_parser` and must define:

``NAME``
    the subcommand's name (``"demo"``, ``"duels"``).
``GROUP``
    ``None`` for a top-level subcommand, or the group it belongs to (``"bench"``, ``"sim"``),
    so ``showdown bench engine`` is the module with ``GROUP = "bench"`` and ``NAME = "engine"``.
``HELP``
    one line for ``--help``.
``add_arguments(parser)``
    adds its options to its own :class:`argparse.ArgumentParser`.
``run(args) -> int``
    does the work and returns the process exit status.

Modules are discovered rather than listed so that adding a subcommand touches one file.
"""
