"""A name declared in a chunk of another name (a Fortran interface block's entry, a list of
prototypes) and defined with a body of its own in another file: a search for the name answers with
the body first (rank.DECLARED_SCALE), as find_definition does."""

from __future__ import annotations

from pramana.code.search import gather, rank
from pramana.code.search.store import Filters
from tests.code.conftest import indexed_service

PROCEDURES = ("steep_leaves", "pour_cup", "warm_pot", "rinse_pot", "weigh_leaves", "boil_water")


def _declaration(name: str) -> str:
    return (
        f"    subroutine {name}(pot, amount, status)\n"
        "      integer, intent(inout) :: pot\n"
        "      integer, intent(in) :: amount\n"
        "      integer, intent(out) :: status\n"
        f"    end subroutine {name}\n"
    )


def _body(name: str) -> str:
    steps = "".join(
        f"    pot = pot + amount * {step}\n    status = status + {step}\n" for step in range(1, 18)
    )
    return (
        f"  ! The {name.replace('_', ' ')} step of a brew.\n"
        f"  subroutine {name}(pot, amount, status)\n"
        "    integer, intent(inout) :: pot\n"
        "    integer, intent(in) :: amount\n"
        "    integer, intent(out) :: status\n"
        "    status = 0\n"
        f"{steps}"
        f"  end subroutine {name}\n\n"
    )


# An interface module declaring every procedure of the library; the bodies of all but the last
# (declared only) in a file named after none of them, each long enough to be a chunk of its own.
INTERFACES_F90 = (
    "module kettle_interfaces\n  implicit none\n  interface\n"
    + "".join(_declaration(name) for name in PROCEDURES)
    + "  end interface\nend module kettle_interfaces\n"
)
BREWING_F90 = (
    "module brewing\n  implicit none\ncontains\n"
    + "".join(_body(name) for name in PROCEDURES[:-1])
    + "end module brewing\n"
)

FILES = {"src/kettle_interfaces.f90": INTERFACES_F90, "src/brewing.f90": BREWING_F90}


def _paths(service, query: str) -> list[str]:
    return [chunk.metadata.filePath for chunk in service.search_code(query, limit=10).chunks]


def _strengths(service, name: str) -> dict[str, float]:
    """Each file's definition strength for a search of `name` (gather.candidates)."""
    definitions = service.store.definition_chunks([name], Filters())
    found = gather.candidates(service.store, rank.plan(name), [], [], definitions)
    return {candidate.path: candidate.definition for candidate in found.values()}


def test_a_declaration_weighs_less_where_another_file_has_the_body(tmp_path, monkeypatch):
    service = indexed_service(FILES, tmp_path)
    assert {d.path for d in service.store.definitions("steep_leaves")} == set(FILES)  # both define it
    strengths = _strengths(service, "steep_leaves")
    body, declaration = strengths["src/brewing.f90"], strengths["src/kettle_interfaces.f90"]
    assert declaration == rank.DECLARED_SCALE * body < body
    assert _paths(service, "steep_leaves")[0] == "src/brewing.f90"
    monkeypatch.setattr(rank, "DECLARED_SCALE", 1.0)
    assert len(set(_strengths(service, "steep_leaves").values())) == 1


def test_a_name_declared_only_keeps_its_declaration(tmp_path):
    service = indexed_service(FILES, tmp_path)
    # boil_water has no body anywhere: its declaration is the answer, at full strength.
    assert _strengths(service, "boil_water") == {"src/kettle_interfaces.f90": 1.0}
    assert _paths(service, "boil_water")[0] == "src/kettle_interfaces.f90"
