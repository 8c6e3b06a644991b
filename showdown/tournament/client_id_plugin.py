"""Mosquitto's client-id check: a small broker plugin, compiled here, binding ids to users.

Mosquitto closes the older of two connections with one client id, and its password and ACL
files cannot say which ids a user may take: anyone holding the join code could connect as
``host-<event>`` and knock the host off. Debian's Mosquitto 2.0 loads plugins (``plugin PATH``)
but ships none that checks ids against the password file's users, so this module holds one:
about forty lines of C against the broker's version-5 plugin interface, declared here rather
than taken from ``mosquitto-dev`` (one package less on a Pi). Before the password check, it
refuses a client whose id is not one of its user's role's (the same rule as
:func:`showdown.tournament.broker_files.client_id_allowed`, which the embedded broker applies), and
defers every other client to the password file. It is compiled with the machine's C compiler
(``cc``), once per source: by the host into its folder for a Mosquitto it starts, and by
``deploy/install.sh --event-host`` for the system's (``python -m
showdown.tournament.client_id_plugin PATH``).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["SOURCE", "PluginError", "build", "can_build", "main"]

SOURCE = r"""
/* Written by showdown.tournament.client_id_plugin: Mosquitto refuses a client id that is not its
 * user's role's (host: host-<event>; join, join-late: join-<16 hex>; tN: <event>-tN). */
#include <stddef.h>
#include <string.h>

struct mosquitto;
struct mosquitto_opt;
typedef struct mosquitto_plugin_id_t mosquitto_plugin_id_t;
struct mosquitto_evt_basic_auth {
    void *future;
    struct mosquitto *client;
    char *username;
    char *password;
    void *future2[4];
};
typedef int (*callback_t)(int, void *, void *);
extern int mosquitto_callback_register(mosquitto_plugin_id_t *, int, callback_t, const void *,
                                       void *);
extern int mosquitto_callback_unregister(mosquitto_plugin_id_t *, int, callback_t,
                                         const void *);
extern const char *mosquitto_client_id(const struct mosquitto *);
extern void mosquitto_log_printf(int, const char *, ...);

enum { EVT_BASIC_AUTH = 3, ERR_AUTH = 11, ERR_PLUGIN_DEFER = 17, LOG_NOTICE = 4 };
static const char LOWER_DIGITS[] = "abcdefghijklmnopqrstuvwxyz0123456789";
static const char HEX[] = "0123456789abcdef";
static mosquitto_plugin_id_t *plugin;

static int all_in(const char *text, size_t count, const char *alphabet)
{
    for (size_t i = 0; i < count; i++) {
        if (text[i] == '\0' || strchr(alphabet, text[i]) == NULL) return 0;
    }
    return 1;
}

static int allowed(const char *user, const char *id)
{
    size_t length = strlen(id), user_length = strlen(user);
    if (strcmp(user, "host") == 0)
        return length == 11 && strncmp(id, "host-", 5) == 0 && all_in(id + 5, 6, LOWER_DIGITS);
    if (strcmp(user, "join") == 0 || strcmp(user, "join-late") == 0)
        return length == 21 && strncmp(id, "join-", 5) == 0 && all_in(id + 5, 16, HEX);
    if (user_length >= 2 && user_length <= 4 && user[0] == 't'
            && all_in(user + 1, user_length - 1, "0123456789"))
        return length == 7 + user_length && all_in(id, 6, LOWER_DIGITS) && id[6] == '-'
            && strcmp(id + 7, user) == 0;
    return 0;
}

static int basic_auth(int event, void *data, void *userdata)
{
    const struct mosquitto_evt_basic_auth *auth = data;
    const char *id = mosquitto_client_id(auth->client);
    (void)event;
    (void)userdata;
    if (auth->username != NULL && id != NULL && allowed(auth->username, id))
        return ERR_PLUGIN_DEFER; /* the password file decides */
    mosquitto_log_printf(LOG_NOTICE, "client id %s refused: not one of user %s's",
                         id ? id : "(none)", auth->username ? auth->username : "(none)");
    return ERR_AUTH;
}

int mosquitto_plugin_version(int count, const int *versions)
{
    (void)count;
    (void)versions;
    return 5;
}

int mosquitto_plugin_init(mosquitto_plugin_id_t *id, void **userdata,
                          struct mosquitto_opt *options, int count)
{
    (void)userdata;
    (void)options;
    (void)count;
    plugin = id;
    return mosquitto_callback_register(plugin, EVT_BASIC_AUTH, basic_auth, NULL, NULL);
}

int mosquitto_plugin_cleanup(void *userdata, struct mosquitto_opt *options, int count)
{
    (void)userdata;
    (void)options;
    (void)count;
    return mosquitto_callback_unregister(plugin, EVT_BASIC_AUTH, basic_auth, NULL);
}
"""


class PluginError(RuntimeError):
    """The plugin cannot be built here; the message says why in one line."""


def plugin_name() -> str:
    """The compiled file's name, with the source's digest: a changed source builds anew."""
    return f"mosquitto-client-ids-{hashlib.sha256(SOURCE.encode()).hexdigest()[:12]}.so"


def can_build() -> bool:
    """Whether a C compiler is here to build the plugin (``--broker auto`` takes the embedded
    broker otherwise, rather than a Mosquitto whose ids anyone could take)."""
    return shutil.which(os.environ.get("CC") or "cc") is not None


def build(folder: Path, cc: str | None = None) -> Path:
    """The plugin compiled into ``folder`` (kept when it already is); PluginError if no C
    compiler is here or it fails."""
    target = folder / plugin_name()
    if target.exists():
        return target
    compiler = cc or os.environ.get("CC") or "cc"
    if shutil.which(compiler) is None:
        raise PluginError(f"Mosquitto's client-id check needs a C compiler ({compiler!r} is "
                          "not installed: apt-get install gcc), or choose --broker embedded")
    folder.mkdir(parents=True, exist_ok=True)
    source = folder / f".{target.stem}.{os.getpid()}.c"
    built = folder / f".{target.name}.{os.getpid()}"
    source.write_text(SOURCE)
    try:
        result = subprocess.run(
            [compiler, "-shared", "-fPIC", "-O2", "-Wall", "-Werror", "-o", str(built),
             str(source)], capture_output=True, text=True, timeout=120, check=False)
        if result.returncode != 0:
            first = (result.stderr.strip().splitlines() or ["no output"])[0]
            raise PluginError(f"compiling Mosquitto's client-id check failed: {first}")
        os.chmod(built, 0o644)
        os.replace(built, target)  # whole, even with two hosts building at once
    finally:
        source.unlink(missing_ok=True)
        built.unlink(missing_ok=True)
    return target


def main(argv: list[str] | None = None) -> int:
    """``python -m showdown.tournament.client_id_plugin PATH``: compile the plugin to ``PATH``."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m showdown.tournament.client_id_plugin PATH", file=sys.stderr)
        return 2
    path = Path(args[0])
    try:
        built = build(path.parent)
    except PluginError as error:
        print(f"mosquitto client-id plugin: {error}", file=sys.stderr)
        return 1
    os.replace(built, path)
    print(f"mosquitto client-id plugin: compiled to {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
