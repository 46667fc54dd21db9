"""C#'s events and indexers are symbols of their class (issue 28's C# held-out set: NUnit's loaders and
runners publish their progress as events). Snippets of our own."""

from __future__ import annotations

from pramana.code.index.tables import CSHARP_EVENTS
from pramana.code.service import CodeService
from tests.code.conftest import indexed_service, reindexed_from_before, symbol_rows

ORDERS = """namespace Shop.Orders
{
    public interface IOrderEvents
    {
        event EventHandler Changed;
    }

    public sealed class OrderService : IOrderEvents
    {
        /// <summary>Raised once an order is placed.</summary>
        public event EventHandler<OrderPlaced> Placed;
        public event EventHandler Changed;

        public event EventHandler Shipped
        {
            add { shipped += value; }
            remove { shipped -= value; }
        }

        public Order this[int id] => store.Find(id);

        public void Place(Order order) { Placed?.Invoke(this, null); }
    }
}
"""


def test_events_and_indexers_are_members():
    rows = {(kind, parent, name) for kind, parent, name, _, _ in symbol_rows("Orders.cs", "csharp", ORDERS)}
    assert {
        ("method", "OrderService", name) for name in ("Placed", "Changed", "Shipped", "this", "Place")
    } <= rows
    assert ("method", "IOrderEvents", "Changed") in rows
    assert not any(name in ("EventHandler", "OrderPlaced") for _, _, name in rows)


def test_find_an_event_by_its_name(tmp_path):
    service = indexed_service({"src/Orders.cs": ORDERS}, tmp_path)
    found = service.explain_code("OrderService.Placed").definition
    assert found is not None and (found.filePath, found.startLine) == ("src/Orders.cs", 11)
    listed = [s.name for s in service.list_functions("src/Orders.cs").symbols]
    assert listed.index("Placed") < listed.index("Place")


def test_an_index_made_before_reads_csharp_again(tmp_path):
    files = {"src/Orders.cs": ORDERS, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, root = reindexed_from_before(CSHARP_EVENTS, files, tmp_path)
    assert "src/Orders.cs" in report.changed_paths and "tools/gen.py" not in report.changed_paths
    assert CodeService(reopened, root).explain_code("OrderService.Shipped").definition is not None
