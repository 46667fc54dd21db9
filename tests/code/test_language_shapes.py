"""Definitions as real Haskell, C# and Elixir code writes them, beyond languages_fixture.py's small
files: module headers, instances, primed names; properties, file-scoped namespaces, partial classes
split over files; protocol implementations. Snippets written for these tests."""

from __future__ import annotations

import pytest

from pramana.code.index.indexer import Indexer
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from tests.code.conftest import indexed_service, symbol_rows

HASKELL = """{-# LANGUAGE FlexibleInstances #-}
-- | Stacks of windows with one in focus.
module Data.Window.Stack
  ( Stack (..)
  , focusUp
  , focusUp'
  ) where

import qualified Data.List as L

data Stack a = Stack { focus :: a, up :: [a], down :: [a] }

data Layouts' a = Layouts { current :: a }
type Layouts = Layouts' String

class Describe a where
  describe :: a -> String

instance Describe (Stack a) where
  describe _ = "stack"

instance (Show a) => Show (Stack a) where
  show s = "Stack"

instance Describe [a] where
  describe _ = "list"

focusUp :: Stack a -> Stack a
focusUp = focusUp'

focusUp' :: Stack a -> Stack a
focusUp' (Stack t (l:ls) rs) = Stack l ls (t:rs)
focusUp' s = s

instance Describe Bool where
  describe _ = "bool"

instance Describe Int where
  describe _ = "int"
"""

CSHARP_MAIN = """namespace Shop.Orders;

/// <summary>An order.</summary>
public partial class Order
{
    private decimal total;

    public Order(string id) { Id = id; }

    public string Id { get; }

    public decimal Total
    {
        get { return total; }
        set { total = value; }
    }

    public bool IsEmpty => total == 0;

    ~Order() { }
}
"""

CSHARP_PART = """namespace Shop.Orders;

public partial class Order : System.IComparable<Order>
{
    public int CompareTo(Order other) => Total.CompareTo(other.Total);
}
"""

ELIXIR = """defprotocol Shop.Priced do
  @doc "The price of a thing."
  def price(thing)
end

defimpl Shop.Priced, for: Map do
  def price(map), do: Map.get(map, :price, 0)
end

defmodule Shop.Basket do
  defstruct items: []

  def total(basket), do: Enum.sum(Enum.map(basket.items, &Shop.Priced.price/1))

  defimpl Shop.Priced do
    def price(basket), do: Shop.Basket.total(basket)
  end

  defmodule Line do
    def new(sku), do: %{sku: sku}
  end
end

defimpl Shop.Priced, for: Integer do
  def price(n), do: n
end

defimpl Shop.Priced, for: Float do
  def price(x), do: round(x)
end
"""


BEHAVIOUR = """defmodule Shop.Store do
  @moduledoc "Where products are kept."

  @doc "Fetches a product."
  @callback fetch(id :: term) :: {:ok, term} | :error
  @callback ready?() :: boolean
  @macrocallback build(opts :: keyword) :: Macro.t()
  @optional_callbacks ready?: 0

  def fetch!(store, id), do: store.fetch(id)
end

defmodule Shop.Store.Memory do
  @behaviour Shop.Store

  @impl true
  def fetch(id), do: {:ok, id}
end
"""


def test_haskell_module_header_instances_and_primed_names():
    assert symbol_rows("src/Data/Window/Stack.hs", "haskell", HASKELL) == {
        ("module", "Data.Window", "Stack", 3, 7),
        ("class", None, "Stack", 11, 11),
        ("class", None, "Layouts'", 13, 13),  # not merged with the synonym `Layouts` below it
        ("type", None, "Layouts", 14, 14),
        ("interface", None, "Describe", 16, 17),
        ("method", "Describe", "describe", 17, 17),
        ("method", "Stack", "describe", 20, 20),  # the instance's type owns its methods
        ("method", "Stack", "show", 23, 23),  # through a context and parentheses
        ("method", "Describe", "describe", 26, 26),  # no type name to own them: the class does
        ("function", None, "focusUp", 28, 29),
        ("function", None, "focusUp'", 31, 33),  # signature and both equations, prime kept
        ("method", "Bool", "describe", 36, 36),  # two instances' methods one after the other: two
        ("method", "Int", "describe", 39, 39),
    }


def test_csharp_properties_file_scoped_namespaces_and_a_partial_class():
    assert symbol_rows("src/Order.cs", "csharp", CSHARP_MAIN) == {
        ("class", None, "Order", 4, 21),
        ("method", "Order", "Order", 8, 8),
        ("method", "Order", "Id", 10, 10),
        ("method", "Order", "Total", 12, 16),
        ("method", "Order", "IsEmpty", 18, 18),
        ("method", "Order", "Order", 20, 20),  # the finalizer `~Order`
    }
    assert symbol_rows("src/Order.Comparison.cs", "csharp", CSHARP_PART) == {
        ("class", None, "Order", 3, 6),
        ("method", "Order", "CompareTo", 5, 5),
    }


def test_elixir_protocol_implementations_belong_to_the_module_they_define():
    assert symbol_rows("lib/shop/priced.ex", "elixir", ELIXIR) == {
        ("interface", "Shop", "Priced", 1, 4),
        ("function", "Shop.Priced", "price", 3, 3),
        ("function", "Shop.Priced.Map", "price", 7, 7),  # `defimpl P, for: Map` is the module P.Map
        ("module", "Shop", "Basket", 10, 22),
        ("function", "Shop.Basket", "total", 13, 13),
        ("function", "Shop.Priced.Shop.Basket", "price", 16, 16),  # no `for:`: for the module around it
        ("module", "Shop.Basket", "Line", 19, 21),
        ("function", "Shop.Basket.Line", "new", 20, 20),
        ("function", "Shop.Priced.Integer", "price", 25, 25),  # not one with the next implementation's
        ("function", "Shop.Priced.Float", "price", 29, 29),
    }


def test_elixir_callbacks_of_a_behaviour_are_its_declared_functions():
    assert symbol_rows("lib/shop/store.ex", "elixir", BEHAVIOUR) == {
        ("module", "Shop", "Store", 1, 11),
        ("function", "Shop.Store", "fetch", 5, 5),
        ("function", "Shop.Store", "ready?", 6, 6),
        ("macro", "Shop.Store", "build", 7, 7),
        ("function", "Shop.Store", "fetch!", 10, 10),
        ("module", "Shop.Store", "Memory", 13, 18),
        ("function", "Shop.Store.Memory", "fetch", 17, 17),
    }
    parsed = parse_file("lib/shop/store.ex", "elixir", "root", BEHAVIOUR)
    declared = next(s for s in parsed.symbols if (s.parent, s.name) == ("Shop.Store", "fetch"))
    assert declared.doc == "Fetches a product."
    assert not any(c.start_line == 5 == c.end_line for c in parsed.chunks)  # no chunk of its own


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {
        "src/Data/Window/Stack.hs": HASKELL,
        "src/Order.Comparison.cs": CSHARP_PART,  # sorts before Order.cs by path
        "src/Order.cs": CSHARP_MAIN,
        "lib/shop/priced.ex": ELIXIR,
    }
    return indexed_service(files, tmp_path_factory.mktemp("shapes"))


def test_a_primed_name_is_found_and_explained_as_itself(service):
    usages = service.find_usages("focusUp'")
    assert [(d.name, d.startLine) for d in usages.definitions] == [("focusUp'", 31)]
    assert 29 in {u.line for u in usages.usages}  # `focusUp = focusUp'`
    explained = service.explain_code("focusUp'")
    assert explained.definition is not None
    assert (explained.definition.name, explained.definition.startLine) == ("focusUp'", 31)


def test_a_partial_class_is_explained_from_the_file_named_after_it(service):
    explained = service.explain_code("Order")
    assert explained.definition is not None
    assert (explained.definition.filePath, explained.definition.kind) == ("src/Order.cs", "class")
    classes = [d.filePath for d in service.find_usages("Order").definitions if d.kind == "class"]
    assert classes == ["src/Order.cs", "src/Order.Comparison.cs"]
    listed = service.list_functions("src/Order.Comparison.cs")
    assert [(s.parent, s.name) for s in listed.symbols] == [(None, "Order"), ("Order", "CompareTo")]


def test_a_property_and_an_implementation_are_found_by_name(service):
    total = service.find_usages("Total")
    found = [(d.parent, d.name, d.startLine, d.endLine) for d in total.definitions]
    assert found == [("Order", "Total", 12, 16)]
    prices = {(d.parent, d.filePath) for d in service.find_usages("Shop.Priced.Map.price").definitions}
    assert ("Shop.Priced.Map", "lib/shop/priced.ex") in prices


def test_a_class_split_over_files_and_its_nested_types_rank_by_their_files(tmp_path):
    """A static partial class over many files (`SqlMapper.Async.cs`...) with a nested type in one of
    them: the class is found in the file named after it, the nested type in the file named after it."""
    part = "namespace Data;\n\npublic static partial class SqlMapper\n{{\n{body}\n}}\n"
    files = {
        "src/SqlMapper.cs": part.format(body="    public static int Execute(string sql) => Run(sql);"),
        "src/SqlMapper.GridReader.cs": part.format(
            body="    public partial class GridReader\n    {\n        public T Read<T>() => default;\n    }"
        ),
        "src/CommandDefinition.cs": "namespace Data;\n\npublic struct CommandDefinition\n{\n}\n",
    }
    for topic in ("Async", "Settings", "Link", "Identity", "CacheInfo", "TypeDeserializerCache"):
        body = f"    internal static void {topic}Helper() {{ }}"
        files[f"src/SqlMapper.{topic}.cs"] = part.format(body=body)
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text, encoding="utf-8")
    store = CodeStore(tmp_path / "code.db")
    Indexer(tmp_path, store, workers=0).run()
    service = CodeService(store, tmp_path)
    queries = ("SqlMapper", "GridReader")
    first = {q: service.search_code(q, limit=5).chunks[0].metadata.filePath for q in queries}
    assert first == {"SqlMapper": "src/SqlMapper.cs", "GridReader": "src/SqlMapper.GridReader.cs"}
