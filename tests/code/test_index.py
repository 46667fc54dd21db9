"""Indexing a repository into SQLite: counts, incremental updates, import resolution."""

import os
import time

from pramana.code.index.indexer import Indexer
from pramana.code.service import CodeService
from pramana.code.store import CodeStore


def index(root, db):
    store = CodeStore(db)
    return store, Indexer(root, store).run()


def test_first_index_parses_everything_and_reports_progress(fresh_repo, tmp_path):
    seen = []
    store = CodeStore(tmp_path / "code.db")
    report = Indexer(
        fresh_repo, store, progress=lambda stage, done, total: seen.append((stage, done, total))
    ).run()
    assert report.files_seen == report.files_parsed == 16 and not report.errors
    counts = store.counts()
    assert counts["files"] == 16 and counts["chunks"] == report.chunks_written > 30
    assert counts["symbols"] >= 25 and counts["refs"] > 50 and counts["vectors"] == 0
    assert store.counts("chunks", "symbols") == {"chunks": counts["chunks"], "symbols": counts["symbols"]}
    assert seen[-1] == ("parse", 16, 16)
    # Where the run's time went, stage by stage (wall and CPU seconds): benchmarks/code_cold.py --stages
    assert list(report.stages) == ["walk", "parse and write", "resolve imports", "bags and vectors left"]
    assert all(wall >= 0 and cpu >= 0 for wall, cpu in report.stages.values())


def test_second_run_touches_nothing(fresh_repo, tmp_path):
    store, _ = index(fresh_repo, tmp_path / "code.db")
    generation = store.generation()
    report = Indexer(fresh_repo, store).run()
    assert report.files_parsed == 0 and report.files_unchanged == 16
    assert store.generation() == generation  # nothing written, so caches stay valid


def test_a_search_reads_one_generation_and_the_next_sees_the_change(fresh_repo, tmp_path):
    store, _ = index(fresh_repo, tmp_path / "code.db")
    before = store.generation()
    cart = fresh_repo / "packages/api/shop/cart.py"
    with store.one_generation():
        cart.write_text(cart.read_text().replace("def apply_discount", "def apply_voucher"))
        Indexer(fresh_repo, CodeStore(tmp_path / "code.db")).run()  # another connection's index run
        assert store.generation() == before  # the caches this block consults answer from one generation
    assert store.generation() > before
    found = CodeService(store, fresh_repo).search_code("apply voucher").chunks
    assert "apply_voucher" in [c.metadata.name for c in found]


def test_only_the_changed_file_is_parsed_and_its_old_chunks_go(fresh_repo, tmp_path):
    store, _ = index(fresh_repo, tmp_path / "code.db")
    cart = fresh_repo / "packages/api/shop/cart.py"
    cart.write_text(cart.read_text().replace("def apply_discount", "def apply_voucher"))
    report = Indexer(fresh_repo, store).run()
    assert report.files_parsed == 1 and report.changed_paths == ["packages/api/shop/cart.py"]
    service = CodeService(store, fresh_repo)
    assert [s.name for s in service.find_usages("apply_voucher").definitions] == ["apply_voucher"]
    assert service.find_usages("apply_discount").definitions == []
    assert not [
        c for c in service.search_code("apply discount").chunks if c.metadata.name == "apply_discount"
    ]


def test_touched_but_unchanged_file_is_not_reparsed(fresh_repo, tmp_path):
    store, _ = index(fresh_repo, tmp_path / "code.db")
    later = time.time() + 10
    os.utime(fresh_repo / "README.md", (later, later))
    report = Indexer(fresh_repo, store).run()
    assert report.files_parsed == 0 and report.files_unchanged == 16
    assert Indexer(fresh_repo, store).run().files_unchanged == 16  # the new mtime was recorded


def test_removed_files_leave_the_index(fresh_repo, tmp_path):
    store, _ = index(fresh_repo, tmp_path / "code.db")
    (fresh_repo / "services/inventory/server.go").unlink()
    report = Indexer(fresh_repo, store).run()
    assert report.removed_paths == ["services/inventory/server.go"]
    service = CodeService(store, fresh_repo)
    assert service.find_usages("NewServer").definitions == []
    assert store.counts()["files"] == 15
    orphans = store._conn.execute(
        "SELECT count(*) FROM bags WHERE chunk_rowid NOT IN (SELECT rowid FROM chunks)"
    ).fetchone()[0]
    assert orphans == 0  # no orphaned term counts
    assert not store.lexical_index().scores(["newserver"]).any()


def test_newly_ignored_file_leaves_the_index(fresh_repo, tmp_path):
    store, _ = index(fresh_repo, tmp_path / "code.db")
    (fresh_repo / ".gitignore").write_text("secrets.env\n*.log\nbuild/\nnotes.txt\n")
    report = Indexer(fresh_repo, store).run()
    assert "notes.txt" in report.removed_paths


def test_imports_resolve_to_repository_files(sample_store, sample_repo):
    service = CodeService(sample_store, sample_repo)
    payments = service.get_dependencies("packages/api/shop/payments.py")
    assert [(i.module, i.resolved, i.external) for i in payments.imports] == [
        ("logging", [], True),
        (".cart", ["packages/api/shop/cart.py"], False),
    ]
    cart = service.get_dependencies("packages/api/shop/cart.py")
    assert cart.importedBy == ["packages/api/shop/__init__.py", "packages/api/shop/payments.py"]
    app = service.get_dependencies("packages/web/src/App.tsx")
    assert app.imports[0].resolved == ["packages/web/src/api.ts"]
    api = service.get_dependencies("packages/web/src/api.ts")
    assert api.imports[0].resolved == ["packages/web/src/util.js"]  # './util.js' written in TS
    lib = service.get_dependencies("crates/pricing/src/lib.rs")
    assert lib.imports[0].resolved == ["crates/pricing/src/tax.rs"]
    assert service.get_dependencies("crates/pricing/src/tax.rs").importedBy == ["crates/pricing/src/lib.rs"]


def test_go_imports_of_a_package_folder(tmp_path):
    (tmp_path / "cmd").mkdir()
    (tmp_path / "store").mkdir()
    (tmp_path / "store/db.go").write_text("package store\n\nfunc Open() {}\n")
    (tmp_path / "store/db_test.go").write_text("package store\n")
    (tmp_path / "cmd/main.go").write_text(
        'package main\n\nimport "example.com/app/store"\n\nfunc main() { store.Open() }\n'
    )
    store, _ = index(tmp_path, tmp_path / "code.db")
    deps = CodeService(store, tmp_path).get_dependencies("cmd/main.go")
    assert deps.imports[0].resolved == ["store/db.go"]


def test_an_edited_import_moves_its_dependency(fresh_repo, tmp_path):
    store, _ = index(fresh_repo, tmp_path / "code.db")
    app = fresh_repo / "packages/web/src/App.tsx"
    app.write_text(app.read_text().replace('from "./api"', 'from "./util"'))
    report = Indexer(fresh_repo, store).run()
    assert report.changed_paths == ["packages/web/src/App.tsx"] and report.added_paths == []
    service = CodeService(store, fresh_repo)
    assert service.get_dependencies("packages/web/src/App.tsx").imports[0].resolved == [
        "packages/web/src/util.js"
    ]
    assert "packages/web/src/App.tsx" not in service.get_dependencies("packages/web/src/api.ts").importedBy
    assert service.get_dependencies("packages/web/src/util.js").importedBy == [
        "packages/web/src/App.tsx",
        "packages/web/src/api.ts",
    ]
    # Files other than the edited one keep their resolved imports.
    assert service.get_dependencies("packages/api/shop/cart.py").importedBy == [
        "packages/api/shop/__init__.py",
        "packages/api/shop/payments.py",
    ]
