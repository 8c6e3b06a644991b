/*
 * The `showdown` command: the interpreter started with the stop signals held back.
 *
 * CPython puts in its own SIGINT handler before it has read a line of anyone's code, and a
 * Ctrl-C in the 20-60 ms it then spends starting (its io, site, the venv's .pth files) ends in
 * its own "Fatal Python error" and KeyboardInterrupt traceback; a SIGTERM there ends the process
 * by the signal. No Python code can reach that window, so this launcher blocks the stop signals
 * and execs the interpreter: a blocked signal stays pending across exec, and the first lines of
 * showdown/__main__.py put in their handler and unblock them, so a signal that came during the
 * start stops the command cleanly at that moment. deploy/build-launcher.sh compiles it in place
 * of pip's script wherever a C compiler is present, with PYTHON the venv's interpreter.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#ifndef PYTHON
#error "compile with -DPYTHON='\"/path/to/venv/bin/python\"'"
#endif

int main(int argc, char **argv) {
    sigset_t stops;
    sigemptyset(&stops);
    sigaddset(&stops, SIGINT);
    sigaddset(&stops, SIGTERM);
    sigaddset(&stops, SIGHUP);
    sigaddset(&stops, SIGUSR1);
    if (sigprocmask(SIG_BLOCK, &stops, NULL) != 0) {
        perror("showdown: cannot hold the stop signals back");
        return 70;
    }
    /* python -P -m showdown ARGS...: -P keeps the working directory off sys.path, as the
       script pip writes does. */
    char **args = calloc((size_t)argc + 4, sizeof *args);
    if (args == NULL) {
        perror("showdown");
        return 70;
    }
    args[0] = PYTHON;
    args[1] = "-P";
    args[2] = "-m";
    args[3] = "showdown";
    for (int i = 1; i < argc; i++) {
        args[i + 3] = argv[i];
    }
    execv(PYTHON, args);
    perror("showdown: cannot start " PYTHON);
    return 127;
}
