"""The interface language: VoxDesk's and Qt's own translations, chosen at start and switchable live.

Installing or removing a translator makes Qt send a LanguageChange event to every widget; each of
VoxDesk's widgets sets its texts again in retranslate(), so switching keeps the queue, the text
being edited and the open tab. Sentences from the core (desktop.core.i18n.Message) are translated
where they are shown, with translated().

The translations are built from resources/translations/voxdesk_<language>.ts with
`make translations` (pyside6-lupdate, then pyside6-lrelease); see TRANSLATION_SOURCES.
"""
from __future__ import annotations

import logging
from typing import Any

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QTranslator

from desktop.core.i18n import localized
from desktop.resources import resource_path

log = logging.getLogger(__name__)

# The interface languages offered in Settings: (setting value, name in that language). The empty
# value follows the system's locale; a language without a translation shows English.
UI_LANGUAGES = (("", None), ("en", "English"), ("zh_CN", "简体中文"))
TRANSLATED = ("zh_CN",)  # the languages resources/translations has a voxdesk_<language>.qm for

# What lupdate reads, and how: the folders with translatable strings, and N_ as the core's marker.
TRANSLATION_SOURCES = ("desktop",)
LUPDATE_OPTIONS = ("-extensions", "py", "-locations", "none", "-tr-function-alias", "QT_TRANSLATE_NOOP+=N_")

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
