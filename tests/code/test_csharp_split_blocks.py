"""A C# block whose braces balance only across `#if` branches (a `{` opened under one `#if`, closed under
another) no longer swallows the rest of the file: issue 28's twenty-ninth held-out set, where KeePassLib's
UrlUtil.cs lost 19 of its methods to one such method and dnlib's IThreadSafeList.cs one. Snippets of our
own."""

from __future__ import annotations

from pramana.code.index.tables import CSHARP_SPLIT_BLOCKS
from pramana.code.service import CodeService
from tests.code.conftest import reindexed_from_before, symbol_rows

# The loop's block opens before the `#if` and closes under it.
SHELF = """using System;

namespace Shop.Stock {
	public class Shelf {
		int[] items = new int[0];

		public void Each(Action<int> handler)
		{
			foreach (var item in items)
			{
				handler(item);
#if !PORTABLE
			}
#endif
		}

		public int Count()
		{
			int n = items.Length;
			return n;
		}

		public void Clear() { items = new int[0]; }
	}

	public class Mover {
		public void Move(string path) { }
	}
}
"""

# The same block closed in each branch, with more after it in the first.
TRACED = SHELF.replace(
    "#if !PORTABLE\n\t\t\t}\n#endif",
    '#if TRACE\n\t\t\t}\n\t\t\tConsole.WriteLine("each");\n#else\n\t\t\t}\n#endif',
)

# Both branches open the same block: the first branch is read.
BRANCHES = """namespace Shop.Files {
	public class Scanner {
		public void Scan(int count) {
#if THREAD_SAFE
			lock (this) {
#else
			{
#endif
				count++;
			}
		}

		public void Stop() { }
	}
}
"""

# Branches that balance on their own stay read whole, every branch of them (test_csharp_preprocessor).
BALANCED = """namespace Shop {
	public class Till {
#if DEBUG
		public void Trace(string line) { }
#else
		public void Quiet() { }
#endif
		public void Ring() { }
	}
}
"""


def _methods(name: str, text: str) -> set[tuple[str | None, str]]:
    rows = symbol_rows(name, "csharp", text)
    return {(parent, symbol) for kind, parent, symbol, _, _ in rows if kind == "method"}


def test_a_block_closed_under_an_if_leaves_the_methods_after_it():
    assert _methods("Shelf.cs", SHELF) == {
        ("Shelf", "Each"),
        ("Shelf", "Count"),
        ("Shelf", "Clear"),
        ("Mover", "Move"),
    }
    rows = {(name, start, end) for _, _, name, start, end in symbol_rows("Shelf.cs", "csharp", SHELF)}
    assert ("Each", 7, 15) in rows and ("Count", 17, 21) in rows


def test_a_block_closed_in_each_branch_is_read_by_the_first():
    assert "Console" in TRACED and "#else" in TRACED
    assert _methods("Shelf.cs", TRACED) == {
        ("Shelf", "Each"),
        ("Shelf", "Count"),
        ("Shelf", "Clear"),
        ("Mover", "Move"),
    }


def test_branches_opening_one_block_twice_read_the_first():
    assert _methods("Scanner.cs", BRANCHES) == {("Scanner", "Scan"), ("Scanner", "Stop")}


def test_branches_that_balance_keep_every_branch():
    assert _methods("Till.cs", BALANCED) == {("Till", "Trace"), ("Till", "Quiet"), ("Till", "Ring")}


def test_an_index_made_before_reads_split_blocks_again(tmp_path):
    files = {"src/Shelf.cs": SHELF, "src/Plain.cs": "namespace Shop { class Plain { } }\n"}
    report, reopened, root = reindexed_from_before(CSHARP_SPLIT_BLOCKS, files, tmp_path)
    assert "src/Shelf.cs" in report.changed_paths and "src/Plain.cs" not in report.changed_paths
    assert CodeService(reopened, root).explain_code("Shelf.Count").definition is not None
