"""The wheel is a whole desktop app: every subpackage, the translations, icons and the menu entry."""
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_wheel_holds_every_module_and_every_resource(tmp_path):
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                            "--quiet", "-w", str(tmp_path), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("voxdesk-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())

    modules = {f"desktop/{p.relative_to(ROOT / 'desktop').as_posix()}" for p in (ROOT / "desktop").rglob("*.py")}
    assert modules - names == set()
    resources = {f"desktop/resources/{p.relative_to(ROOT / 'resources').as_posix()}"
                 for p in (ROOT / "resources").rglob("*") if p.is_file() and "__pycache__" not in p.parts}
    assert resources - names == set()
    for needed in ("desktop/resources/translations/voxdesk_zh_CN.qm", "desktop/resources/voxdesk.desktop",
                   "desktop/resources/system-packages.txt", "desktop/resources/icons/app.svg"):
        assert needed in names
    entry_points = next(n for n in names if n.endswith(".dist-info/entry_points.txt"))
    assert "voxdesk = desktop.__main__:main" in zipfile.ZipFile(wheel).read(entry_points).decode()
