"""C#'s types and members inside `#if` / `#elif` / `#else` are symbols (issue 28's second PHP/C# held-out
set: dnlib's src/Threading/Lock.cs holds its classes in one `#if THREAD_SAFE` inside the namespace and
had no symbol). Snippets of our own."""

from __future__ import annotations

from pramana.code.index.tables import CSHARP_PREPROCESSOR_BRANCHES
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

TILL = """using System;

namespace Shop.Checkout {
#region Baskets
#if FULL_FRAMEWORK
	sealed class Basket {
		public void Add(Item item) { }
	}
#elif PORTABLE
	sealed class Basket {
		public void Add(Item item, int count) { }
	}
#else
	sealed class Cart {
		public void Empty() { }
	}
#endif
#endregion

	public class Till {
#if DEBUG
		public void Trace(string line) { }
#endif
		public void Ring() { }
	}
}
"""

GUARDED = """namespace Shop.Threading {
#if THREAD_SAFE
	class CounterLock {
		public static CounterLock Create() { return new CounterLock(); }
		public void Enter() { }
	}
#endif
}
"""


def test_every_branch_of_an_if_is_read():
    rows = {(kind, parent, name) for kind, parent, name, _, _ in symbol_rows("Till.cs", "csharp", TILL)}
    assert {("class", None, "Basket"), ("class", None, "Cart"), ("class", None, "Till")} <= rows
    assert {("method", "Basket", "Add"), ("method", "Cart", "Empty")} <= rows
    assert {("method", "Till", "Trace"), ("method", "Till", "Ring")} <= rows


def test_a_namespace_holding_one_if_has_its_symbols(tmp_path):
    service = indexed_service({"src/Threading/CounterLock.cs": GUARDED}, tmp_path)
    explained = service.explain_code("CounterLock")
    found = [explained.definition, *explained.otherDefinitions]
    assert [(d.filePath, d.startLine) for d in found if d] == [("src/Threading/CounterLock.cs", 3)]
    listed = [s.name for s in service.list_functions("src/Threading/CounterLock.cs").symbols]
    assert listed == ["CounterLock", "Create", "Enter"]


def test_an_index_made_before_reads_guarded_csharp_again(tmp_path):
    files = {"src/CounterLock.cs": GUARDED, "src/Plain.cs": "namespace Shop { class Plain { } }\n"}
    report, reopened, root = reindexed_from_before(CSHARP_PREPROCESSOR_BRANCHES, files, tmp_path)
    assert "src/CounterLock.cs" in report.changed_paths and "src/Plain.cs" not in report.changed_paths
    assert CodeService(reopened, root).explain_code("CounterLock.Enter").definition is not None
