"""One rule for a name: the host, the table's game, Set-up and the join request take the same
names and refuse the same ones, each refusal one line naming the name and the rule.

Before, the host took a 250-character name that a table's game refused (the table stopped with a
traceback and the event waited for it for ever), and a direction override (U+202E) in a name
reversed the rest of its line on the page, other players' names included.
"""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import example, given
from hypothesis import strategies as st
from pydantic import SecretStr, ValidationError

from showdown.game.messages import CommandError, SetUpGame, parse_command
from showdown.game.names import (
    DIRECTION_CONTROLS,
    NAME_MAX,
    NAME_RULE,
    NameRuleError,
    allowed_in_name,
    check_name,
    name_problem,
)
from showdown.tournament.messages import JoinRequest

RLO = "\u202e"


def _takes(name: str) -> bool:
    """The rule, written out another way: the oracle the properties compare with."""
    return (0 < len(name) <= NAME_MAX
            and all(c not in DIRECTION_CONTROLS
                    and unicodedata.category(c) not in ("Cc", "Cs", "Zl", "Zp") for c in name)
            and any(unicodedata.category(c)[0] in "LNPS" for c in name)
            and name == name.strip())


names = st.one_of(
    st.text(max_size=NAME_MAX + 5),
    st.text(st.sampled_from(["A", "é", "李", " ", "\t", "\n", "\u200d", "\u0301", "\u00a0",
                             *DIRECTION_CONTROLS]), max_size=NAME_MAX + 2),
    st.text(min_size=NAME_MAX - 2, max_size=300),
)


@given(names)
@example("Ada")
@example("x" * 250)
@example(f"Ada{RLO}Ben")
@example(" Ada")
@example("\u200d")
def test_a_name_is_taken_or_refused_in_one_line_naming_it_and_the_rule(name: str) -> None:
    assert (name_problem(name) is None) is _takes(name)
    try:
        taken = check_name(name, "player name")
    except NameRuleError as error:
        said = str(error)
        assert not _takes(name)
        assert said.startswith("player name '") and said.endswith(f"({NAME_RULE})")
        # one line, which nothing in the name can break or turn round on a terminal
        assert all(allowed_in_name(c) for c in said), repr(said)
        shown = "".join(c if allowed_in_name(c) else f"\\u{ord(c):04x}" for c in name[:NAME_MAX])
        assert f"'{shown}" in said
        if len(name) > NAME_MAX:
            assert f"({len(name)} characters)" in said
    else:
        assert _takes(name) and taken == name


@given(names)
@example("x" * 250)
@example(f"Ada{RLO}")
def test_the_tables_game_and_the_join_request_take_the_names_the_rule_takes(name: str) -> None:
    """The session's set-up and the table's join request answer as the rule does."""
    other = "Zed" if name != "Zed" else "Amy"
    try:
        parse_command({"kind": "set_up_game", "players": [name, other]})
    except CommandError as error:
        assert not _takes(name), str(error)
        assert "\n" not in str(error)
    else:
        assert _takes(name)
    try:
        JoinRequest(code=SecretStr("ABCDEFGH"), client="join-0123456789abcdef", name=name)
    except ValidationError:
        assert not _takes(name) and name != ""
    else:
        assert _takes(name) or name == ""  # no name: the table is called by its number


def test_a_game_already_set_up_goes_on_with_its_names() -> None:
    """Commands that name a player of the game take the names a game was set up with before
    the rule (the session checks each is one of the game's): an open game never stops."""
    SetUpGame(players=["Ada", "Ben"])
    parse_command({"kind": "record_round", "went_out": " Ada", "hands": {}})
    with pytest.raises(CommandError):
        parse_command({"kind": "record_round", "went_out": "x" * (NAME_MAX + 1), "hands": {}})
