"""The interface language: VoxDesk's and Qt's own translations, chosen at start and switchable live.

Installing or removing a translator makes Qt send a LanguageChange event to every widget; each of
VoxDesk's widgets sets its texts again in retranslate(), so switching keeps the queue, the text
being edited and the open tab. Sentences from the core (desktop.core.common.i18n.Message) are translated
where they are shown, with translated().

The .ts sources in resources/translations are refreshed from the code, and compiled to the .qm files
that ship, with `python -m desktop.ui.common.i18n` in the source tree (`make translations`).
"""
from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from desktop.core.common.i18n import localized
from desktop.resources import resource_path

log = logging.getLogger(__name__)

# The interface languages offered in Settings: (setting value, name in that language). The empty
# value follows the system's locale; a language without a translation shows English.
UI_LANGUAGES = (("", None), ("en", "English"), ("zh_CN", "简体中文"))
TRANSLATED = ("zh_CN",)  # the languages resources/translations has a voxdesk_<language>.qm for

# What lupdate reads, and how: the package's Python files, with N_ (desktop.core.common.i18n) spelled like
# QT_TRANSLATE_NOOP. No line numbers in the .ts, so editing code does not churn it.
TRANSLATION_SOURCES = ("desktop",)
LUPDATE_OPTIONS = ("-extensions", "py", "-locations", "none", "-source-language", "en",
                   "-tr-function-alias", "QT_TRANSLATE_NOOP+=N_")

_OBJECT_NAME = "voxdesk-translator"  # marks the translators this module installed


def translated(text: Any) -> Any:
    """A core Message in the interface language; any other text as it is."""
    return localized(text, QCoreApplication.translate)


def interface_locale(choice: str, system: QLocale | None = None) -> QLocale:
    """The locale of the interface for the ui/language setting ("" follows the system)."""
    if choice:
        return QLocale(choice)
    return system if system is not None else QLocale.system()


def translation_name(locale: QLocale) -> str | None:
    """The translation VoxDesk ships for this locale ("zh_CN"), or None: English."""
    for language in TRANSLATED:
        wanted = QLocale(language)
        if locale.language() == wanted.language() and locale.script() == wanted.script():
            return language
    return None


def apply_language(app: QCoreApplication, choice: str, system: QLocale | None = None) -> str | None:
    """Show the interface in the language of the ui/language setting, replacing the one shown now.

    Qt's own dialogs and buttons follow the same language, so nothing shows up half in English.
    Returns the translation in use ("zh_CN"), or None for English.
    """
    locale = interface_locale(choice, system)
    language = translation_name(locale)
    translators = []
    if language is not None:
        ours = QTranslator(app)
        if ours.load(f"voxdesk_{language}", str(resource_path("translations"))):
            qt_own = QTranslator(app)
            if qt_own.load(f"qtbase_{language}", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)):
                translators.append(qt_own)
            translators.append(ours)
        else:
            log.warning("the %s translation is missing; showing English", language)
            language = None
    for old in app.findChildren(QTranslator, _OBJECT_NAME):
        QCoreApplication.removeTranslator(old)
        old.deleteLater()
    for translator in translators:
        translator.setObjectName(_OBJECT_NAME)
        QCoreApplication.installTranslator(translator)
    # Numbers and dates in Qt's widgets follow the interface language, not a system locale in another.
    if language is None and locale.language() != QLocale.Language.English:
        locale = QLocale(QLocale.Language.English, QLocale.Country.UnitedStates)
    QLocale.setDefault(locale)
    return language


# -- building the translations (a developer's step, not run by the app) --------------------------


def qt_tool(name: str) -> str:
    """pyside6-lupdate / pyside6-lrelease next to this Python (the virtual environment's bin)."""
    local = Path(sys.executable).with_name(f"pyside6-{name}")
    return str(local) if local.exists() else f"pyside6-{name}"


def lupdate_command(root: Path, ts_file: Path) -> list[str]:
    """The lupdate call that brings ts_file up to date with every translatable string under root:
    new strings come in unfinished, strings the code no longer has are dropped."""
    language = ts_file.stem.removeprefix("voxdesk_")
    return [qt_tool("lupdate"), *LUPDATE_OPTIONS, "-target-language", language, "-no-obsolete",
            *(str(root / source) for source in TRANSLATION_SOURCES), "-ts", str(ts_file)]


def lrelease_command(ts_file: Path, qm_file: Path) -> list[str]:
    """The lrelease call that compiles ts_file into the qm_file the app loads."""
    return [qt_tool("lrelease"), str(ts_file), "-qm", str(qm_file)]


def update_translations(root: Path) -> None:
    """Refresh each .ts from the code (new strings come in unfinished), then compile the .qm files."""
    from desktop.ui.common.translation_memory import carry_over, finished_translations

    folder = root / "resources" / "translations"
    for language in TRANSLATED:
        ts_file = folder / f"voxdesk_{language}.ts"
        known = finished_translations(ts_file.read_text(encoding="utf-8")) if ts_file.exists() else {}
        subprocess.run(lupdate_command(root, ts_file), check=True)
        text, _filled = carry_over(ts_file.read_text(encoding="utf-8"), known)
        ts_file.write_text(text, encoding="utf-8")
        subprocess.run(lrelease_command(ts_file, ts_file.with_suffix(".qm")), check=True)


if __name__ == "__main__":
    update_translations(Path.cwd())
