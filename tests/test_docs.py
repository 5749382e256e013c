"""The rules document is made from the engine's own rules texts; it must not drift."""

from pathlib import Path

from quetgames.__main__ import rules_document

ROOT = Path(__file__).resolve().parent.parent


def test_rules_document_is_up_to_date():
    committed = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    assert committed == rules_document(), "regenerate it: cd py && python -m quetgames rules > ../docs/RULES.md"


def test_rules_document_credits_the_inventor_and_covers_every_game():
    text = rules_document()
    assert "Leroy Quet" in text
    for name in ["Convoluted Coprimality", "Enumeration", "Prime Target", "Multiplications Within the Permutation", "Nonconformity"]:
        assert f"## {name}" in text


def test_nonconformitys_example_of_a_shared_factor_names_the_term():
    """Issue 56: "(after 10, any even number ...)" read as "after round 10"; the
    example says that 10 is the previous term."""
    text = rules_document()
    assert "(after 10," not in text
    assert "if that term was 10, for example" in text
