"""Members holding functions (TypeScript's class fields, Kotlin's, Swift's, Scala's and C#'s
function-valued properties) and operators defined in each language: what the structural tools know
of them, and how they are looked up by name."""

from __future__ import annotations

import pytest

from pramana.code.index.indexer import Indexer
from pramana.code.index.tables import FIELDS_OPERATORS
from pramana.code.parse import parse_file
from pramana.code.service import CodeService
from pramana.code.store import CodeStore
from pramana.code.symbols.lookup import qualified_name
from tests.code.conftest import reindexed_from_before, write_files

BUTTON = """\
export class Button extends Component<Props> {
  count = 0;
  label: string = "ok";
  private readonly load = async (id: string): Promise<Item> => {
    return this.api.get(id);
  };
  static create = (props: Props) => new Button(props);
  handleClick = function (event: MouseEvent) {
    this.setState({ count: this.count + 1 });
  };
  render() {
    return this.label;
  }
}
"""

KOTLIN = """\
class Money(val cents: Long) {
    val onChange = { old: Long, new: Long -> println(new - old) }
    private val rounded: (Double) -> Long = { Math.round(it) }
    val parse = fun(text: String): Money { return Money(text.toLong()) }
    val zero = 0L
    operator fun plus(other: Money): Money = Money(cents + other.cents)
}
"""

SWIFT = """\
struct Money: Equatable {
    let cents: Int
    var onChange: (Int) -> Void = { print($0) }
    lazy var formatted = { () -> String in "\\(cents)" }()
    static func == (a: Money, b: Money) -> Bool { a.cents == b.cents }
}
infix operator <+> : AdditionPrecedence
func <+> (a: Money, b: Money) -> Money { Money(cents: a.cents + b.cents) }
"""

SCALA = """\
class Money(val cents: Long) {
  val parse = (text: String) => new Money(text.toLong)
  val zero = 0L
  def +(other: Money): Money = new Money(cents + other.cents)
}
"""

CSHARP = """\
public readonly struct Money {
    public static readonly Func<string, Money> Parse = text => new Money(decimal.Parse(text));
    private readonly Action onDone = delegate { };
    public readonly decimal Amount;
    public static Money operator +(Money a, Money b) => new Money(a.Amount + b.Amount);
    public static bool operator ==(Money a, Money b) { return a.Amount == b.Amount; }
    public static bool operator !=(Money a, Money b) => !(a == b);
    public static implicit operator decimal(Money m) => m.Amount;
}
"""

DART = """\
class Money {
  final int cents;
  final VoidCallback onTap = () {};
  final int tax = 20;
  const Money(this.cents);
  Money operator +(Money other) => Money(cents + other.cents);
  @override
  bool operator ==(Object other) => other is Money && other.cents == cents;
  int operator [](int digit) => cents ~/ digit;
  Money operator -() => Money(-cents);
}
"""

CPP = """\
struct Money {
  long cents;
  Money operator+(const Money& other) const { return Money{cents + other.cents}; }
  Money& operator+=(const Money& other);
  bool operator==(const Money& other) const;
  explicit operator bool() const { return cents != 0; }
  long& at(int i);
  operator std::string() const;
};

Money& Money::operator+=(const Money& other) {
  cents += other.cents;
  return *this;
}

std::ostream& operator<<(std::ostream& out, const Money& m) {
  return out << m.cents;
}

const std::string& currency() { static std::string code = "EUR"; return code; }
"""

ELIXIR = """\
defmodule Money do
  def a <~> b, do: add(a, b)
  defmacro left ~>> right do
    quote do: unquote(left) + unquote(right)
  end
  def add(a, b) when is_integer(a), do: a + b
end
"""

HASKELL = """\
module Money where

(<+>) :: Money -> Money -> Money
Money a <+> Money b = Money (a + b)

instance Semigroup Money where
  a <> b = a <+> b
"""

OCAML = """\
let ( +! ) a b = a + b
let ( let* ) x f = Option.bind x f
let zero = 0
"""


def symbols(path: str, language: str, text: str) -> list[tuple[str, str, str | None]]:
    return [(s.kind, s.name, s.parent) for s in parse_file(path, language, "", text).symbols]


def test_typescript_class_fields_holding_functions_are_methods():
    assert symbols("src/button.ts", "typescript", BUTTON) == [
        ("class", "Button", None),
        ("method", "load", "Button"),
        ("method", "create", "Button"),
        ("method", "handleClick", "Button"),
        ("method", "render", "Button"),
    ]  # `count = 0` and `label: string` hold values: no symbols
    tsx = BUTTON.replace("return this.label;", "return <b onClick={this.handleClick}>{this.label}</b>;")
    assert ("method", "handleClick", "Button") in symbols("src/button.tsx", "tsx", tsx)


@pytest.mark.parametrize(
    ("path", "language", "text", "expected"),
    [
        (
            "Money.kt", "kotlin", KOTLIN,
            [
                ("class", "Money", None), ("method", "onChange", "Money"), ("method", "rounded", "Money"),
                ("method", "parse", "Money"), ("method", "plus", "Money"),
            ],
        ),
        (
            "Money.swift", "swift", SWIFT,
            [("class", "Money", None), ("method", "onChange", "Money"), ("method", "==", "Money"),
             ("function", "<+>", None)],
        ),
        (
            "Money.scala", "scala", SCALA,
            [("class", "Money", None), ("method", "parse", "Money"), ("method", "+", "Money")],
        ),
    ],
)  # fmt: skip
def test_members_holding_functions_are_methods_and_plain_values_are_not(path, language, text, expected):
    assert symbols(path, language, text) == expected


def test_csharp_function_fields_and_operators():
    assert symbols("Money.cs", "csharp", CSHARP) == [
        ("class", "Money", None),
        ("method", "Parse", "Money"),
        ("method", "onDone", "Money"),
        ("method", "operator+", "Money"),
        ("method", "operator==", "Money"),
        ("method", "operator!=", "Money"),
        ("method", "operator decimal", "Money"),
    ]


def test_dart_cpp_elixir_haskell_and_ocaml_operators_are_named_as_used():  # and Dart's fields
    assert symbols("lib/money.dart", "dart", DART) == [
        ("class", "Money", None),
        ("method", "onTap", "Money"),  # `cents` and `tax` hold values: no symbols
        ("method", "Money", "Money"),
        ("method", "operator+", "Money"),
        ("method", "operator==", "Money"),
        ("method", "operator[]", "Money"),
        ("method", "operator-", "Money"),
    ]
    assert symbols("src/money.cc", "cpp", CPP) == [
        ("class", "Money", None),
        ("method", "operator+=", "Money"),  # declared in the class (symbols listed first)
        ("method", "operator==", "Money"),
        ("method", "at", "Money"),  # returns a reference: a declarator under `&`
        ("method", "operator std::string", "Money"),
        ("method", "operator+", "Money"),
        ("method", "operator bool", "Money"),
        ("method", "operator+=", "Money"),  # defined outside it
        ("function", "operator<<", None),
        ("function", "currency", None),
    ]
    assert symbols("lib/money.ex", "elixir", ELIXIR) == [
        ("module", "Money", None),
        ("function", "<~>", "Money"),
        ("macro", "~>>", "Money"),
        ("function", "add", "Money"),  # `when` is a guard, not an operator defined
    ]
    assert symbols("src/Money.hs", "haskell", HASKELL) == [
        ("module", "Money", None),
        ("function", "<+>", None),  # the signature and the infix equation: one definition
        ("method", "<>", "Money"),
    ]
    assert symbols("src/money.ml", "ocaml", OCAML) == [
        ("module", "Money", None),
        ("function", "+!", "Money"),
        ("function", "let*", "Money"),
        ("function", "zero", "Money"),
    ]


def test_operator_queries_are_names():
    assert qualified_name("operator==") == (None, "operator==")
    assert qualified_name("Money::operator ==") == ("Money", "operator==")
    assert qualified_name("Money.==") == ("Money", "==")
    assert qualified_name("<=>") == (None, "<=>")
    assert qualified_name("operator()") == (None, "operator()")
    assert qualified_name("operator bool") == (None, "operator bool")
    assert qualified_name("Cart.total()") == ("Cart", "total")
    assert qualified_name("how is money added") is None


@pytest.fixture(scope="module")
def service(tmp_path_factory) -> CodeService:
    files = {
        "src/button.ts": BUTTON,
        "Sources/Money.swift": SWIFT,
        "Money.cs": CSHARP,
        "src/money.cc": CPP,
        "src/Money.hs": HASKELL,
        "lib/money.rb": "class Money\n  def <=>(other)\n    cents <=> other.cents\n  end\nend\n",
    }
    root = write_files(files, tmp_path_factory.mktemp("repo"))
    store = CodeStore(tmp_path_factory.mktemp("index") / "code.db")
    Indexer(root, store, workers=0).run()
    return CodeService(store, root)


@pytest.mark.parametrize(
    ("query", "path", "line"),
    [
        ("Button.handleClick", "src/button.ts", 8),
        ("operator+", "Money.cs", 5),
        ("Money.operator==", "Money.cs", 6),
        ("operator bool", "src/money.cc", 6),
        ("operator<<", "src/money.cc", 16),
        ("Money::operator+=", "src/money.cc", 4),  # the declaration first, then the definition
        ("Money.==", "Sources/Money.swift", 5),
        ("<+>", "Sources/Money.swift", 8),
        ("<=>", "lib/money.rb", 2),
        ("<>", "src/Money.hs", 7),
    ],
)
def test_explain_code_finds_members_and_operators_by_name(service, query, path, line):
    found = service.explain_code(query).definition
    assert found is not None and (found.filePath, found.startLine) == (path, line)


def test_list_functions_lists_operators_and_search_is_not_hurt(service):
    listed = [s.name for s in service.list_functions("Money.cs").symbols]
    assert listed == ["Money", "Parse", "onDone", "operator+", "operator==", "operator!=", "operator decimal"]
    assert service.search_code("==").chunks == []  # punctuation has no words: nothing, not everything
    top = service.search_code("add two money amounts with the plus operator").chunks
    assert top and all(c.content.strip() for c in top)


def test_an_index_made_before_reads_those_languages_again(tmp_path):
    files = {"src/button.ts": BUTTON, "Money.cs": CSHARP, "tools/gen.py": "def gen():\n    pass\n"}
    report, reopened, _ = reindexed_from_before(FIELDS_OPERATORS, files, tmp_path)
    assert {"src/button.ts", "Money.cs"} <= set(report.changed_paths)
    assert "tools/gen.py" not in report.changed_paths
    assert CodeService(reopened, tmp_path / "repo").explain_code("Button.load").definition is not None
