"""The model picker that advises: groups, languages, sizes, speeds measured here, and the hint for Chinese."""
import shutil
import threading

import pytest
from PySide6.QtCore import Qt

from desktop.core.common.paths import models_dir
from desktop.core.common.shared_models import ModelSources
from desktop.core.transcription.speed_records import SpeedRecords, machine_key
from desktop.core.transcription.whisper_models import ModelStore
from desktop.ui.transcribe.model_picker import ADVICE_ROLE, HEADING_ROLE
from desktop.ui.transcribe.options_bar import OptionsBar
from desktop.workers.job import JobRunner
from desktop.workers.transcription_queue import ItemState
from tests.helpers.weights import DATA_DIR, base_dir
from tests.ui.conftest import JOB_TIMEOUT_MS, TEST_MODEL
from tests.ui.transcribe.test_transcribe_tab import drop


@pytest.fixture
def bar(qtbot, settings, tiny_model):
    runner = JobRunner()
    bar = OptionsBar(settings, ModelStore(models_dir()), runner)
    qtbot.addWidget(bar)
    bar.show()
    yield bar
    bar.shutdown()
    qtbot.waitUntil(lambda: not runner.busy, timeout=JOB_TIMEOUT_MS)


def listed(bar, qtbot) -> None:
    bar.refresh_models()
    qtbot.waitUntil(lambda: bar.model_combo.findData("large-v3") >= 0, timeout=10_000)
    qtbot.waitUntil(lambda: not bar._jobs.running(), timeout=10_000)


def rows(combo) -> list[tuple[str, str | None, bool]]:
    model = combo.model()
    return [(model.index(i, 0).data(), model.index(i, 0).data(ADVICE_ROLE), bool(model.index(i, 0).data(HEADING_ROLE)))
            for i in range(model.rowCount())]


def test_models_are_grouped_with_languages_size_and_the_speed_measured_here(qtbot, bar):
    records = SpeedRecords()
    records.add(TEST_MODEL, "ct2", "cpu", machine_key(), 15.2)
    records.add("base", "ct2", "cpu", "another computer", 99.0)  # not this machine: not shown
    listed(bar, qtbot)
    combo = bar.model_combo

    headings = [text for text, _advice, heading in rows(combo) if heading]
    assert headings == ["Fast", "Balanced", "Accurate", "Imported"]
    names = [combo.itemData(i) for i in range(combo.count())]
    assert names.index("tiny") < names.index("small") < names.index("turbo") < names.index(TEST_MODEL)
    assert combo.advice("base") == "99 languages · 145 MB"
    assert combo.advice("small.en") == "English only · 484 MB"
    assert combo.advice(TEST_MODEL).endswith(" · an hour of recording takes about 4 minutes here")
    assert combo.currentData() == TEST_MODEL and combo.currentText() == f"✓ {TEST_MODEL} (imported)"
    for row, (_text, _advice, heading) in enumerate(rows(combo)):
        if heading:
            assert not combo.model().item(row).flags() & Qt.ItemFlag.ItemIsSelectable
            assert combo.itemData(row) is None


def test_a_damaged_speeds_file_leaves_the_list_without_speeds(qtbot, bar):
    path = SpeedRecords().path
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(b'{"records": [{"model": "' + b"\xff" * 100 + b'"}]')
    listed(bar, qtbot)
    advice = bar.model_combo.advice(TEST_MODEL)
    assert advice.startswith("English only · ") and "real time" not in advice
    assert bar.model_combo.advice("base") == "99 languages · 145 MB"


def test_the_chinese_hint_shows_for_chinese_with_tiny_or_base_only(qtbot, bar, settings):
    listed(bar, qtbot)

    def choose(model: str, language: str) -> bool:
        bar.model_combo.setCurrentIndex(bar.model_combo.findData(model))
        bar.language_combo.setCurrentIndex(bar.language_combo.findData(language))
        return bar.chinese_hint.isVisible()

    assert choose("base", "zh") and choose("tiny", "zh")
    assert "small" in bar.chinese_hint.text()
    assert not choose("small", "zh") and not choose("large-v3", "zh") and not choose(TEST_MODEL, "zh")
    assert not choose("base", "en") and not choose("base", "auto")
    assert choose("base", "zh")

    settings.set("transcribe/model", "tiny")  # a new bar starts with the hint when it applies
    settings.set("transcribe/language", "zh")
    again = OptionsBar(settings, ModelStore(models_dir()), JobRunner())
    qtbot.addWidget(again)
    again.show()
    assert again.chinese_hint.isVisible()
    again.shutdown()


class ThreadNotingRecords(SpeedRecords):
    def __init__(self, path):
        super().__init__(path)
        self.threads: list[int] = []

    def add(self, *args, **kwargs):
        self.threads.append(threading.get_ident())
        return super().add(*args, **kwargs)


def test_the_quiet_measurement_runs_once_after_the_first_transcription_off_the_gui_thread(qtbot, window, jfk):
    measurement = window.measurement
    measurement.quiet_delay_ms = 0
    records = measurement.records = ThreadNotingRecords(measurement.records.path)
    starts = []
    measurement.started.connect(starts.append)
    tab = window.transcribe_tab

    drop(tab, jfk)
    with qtbot.waitSignal(measurement.finished, timeout=JOB_TIMEOUT_MS) as ended:
        pass
    assert ended.args == [None] and starts == [True]
    assert tab.queue.items[0].state is ItemState.DONE
    assert records.threads and threading.get_ident() not in records.threads
    assert SpeedRecords(records.path).measured(machine_key()) == {(TEST_MODEL, "ct2", "cpu")}
    qtbot.waitUntil(lambda: "an hour of recording takes" in (tab.model_combo.advice(TEST_MODEL) or ""), timeout=10_000)

    drop(tab, DATA_DIR / "lj050-0131.wav")  # the second file: no second measurement
    qtbot.waitUntil(lambda: len(tab.queue.items) == 2 and tab.queue.items[1].state is ItemState.DONE,
                    timeout=JOB_TIMEOUT_MS)
    qtbot.wait(300)
    assert starts == [True] and not measurement.running


def test_tools_measure_this_computer_lists_the_speeds_and_they_survive_a_restart(qtbot, window, settings):
    from desktop.app import create_app
    from desktop.ui.transcribe.model_dialogs import MeasureComputerDialog

    window.measure_action.trigger()
    dialog = window.findChild(MeasureComputerDialog)
    assert dialog is not None and dialog.isVisible()
    qtbot.waitUntil(lambda: dialog.again_button.isEnabled(), timeout=JOB_TIMEOUT_MS)
    assert dialog.results.text().startswith(f"{TEST_MODEL} on the processor (faster-whisper): an hour of recording takes about ")
    assert dialog.note.text() == "Done. The model list now shows these speeds."
    combo = window.transcribe_tab.model_combo
    qtbot.waitUntil(lambda: "an hour of recording takes" in (combo.advice(TEST_MODEL) or ""), timeout=10_000)
    shown = combo.advice(TEST_MODEL)
    dialog.close()
    window.close()

    _app, again = create_app([], settings=settings)  # a restart: the speed is read back, not measured
    qtbot.addWidget(again)
    again_combo = again.transcribe_tab.model_combo
    qtbot.waitUntil(lambda: again_combo.advice(TEST_MODEL) is not None, timeout=10_000)
    assert again_combo.advice(TEST_MODEL) == shown and not again.measurement.running
    again.close()


def test_measuring_with_no_model_on_the_computer_says_what_to_do(qtbot, window, tiny_model):
    import shutil

    shutil.rmtree(models_dir())
    window.measure_action.trigger()
    from desktop.ui.transcribe.model_dialogs import MeasureComputerDialog

    dialog = window.findChild(MeasureComputerDialog)
    qtbot.waitUntil(lambda: dialog.again_button.isEnabled(), timeout=JOB_TIMEOUT_MS)
    assert dialog.results.text() == ""
    assert "No model is on this computer yet" in dialog.note.text()
    dialog.close()


def test_a_model_from_a_shared_folder_is_listed_as_such(qtbot, settings, tmp_path):
    shared = tmp_path / "shared"
    shutil.copytree(base_dir(), shared / "faster-whisper-base")
    store = ModelStore(models_dir(), sources=ModelSources(shared_dirs=(shared,)))
    runner = JobRunner()
    bar = OptionsBar(settings, store, runner)
    qtbot.addWidget(bar)
    try:
        listed(bar, qtbot)
        combo = bar.model_combo
        assert combo.itemText(combo.findData("base")) == "✓ base (shared folder)"
        assert combo.itemText(combo.findData("small")) == "small (484 MB download)"
    finally:
        bar.shutdown()
        qtbot.waitUntil(lambda: not runner.busy, timeout=JOB_TIMEOUT_MS)


def radeon_report(memory_gib: float):
    from desktop.core.gpu.device import DeviceReport

    return DeviceReport(torch_build="rocm", gpu_available=True, gpu_name="Radeon RX 7900 XTX", gfx_arch="gfx1100",
                        memory_total=int(memory_gib * 2**30), memory_free=None, rocm_version="7.2.1",
                        hip_version="7.2", cuda_version=None, arch_supported=True, ct2_gpu_count=0,
                        cpu_name="AMD Ryzen 9 7950X", cpu_cores=32, torch_gpu_count=1)


def test_the_picker_marks_what_the_gpu_affords_and_says_why_keeping_the_users_own_choice(qtbot, bar, settings):
    listed(bar, qtbot)
    bar.suggest_for_device(radeon_report(24))
    combo = bar.model_combo
    assert combo.advice("turbo").endswith(" · suggested here")
    index = combo.findData("turbo")
    assert "large-v3-turbo" in combo.itemData(index, Qt.ItemDataRole.ToolTipRole)
    assert combo.currentData() == TEST_MODEL  # chosen by the user: kept


def test_without_a_choice_of_their_own_the_user_starts_with_the_model_the_gpu_affords(qtbot, bar, settings):
    settings._store.remove("transcribe/model")
    listed(bar, qtbot)
    bar.suggest_for_device(radeon_report(8))
    qtbot.waitUntil(lambda: bar.model_combo.currentData() == "small", timeout=10_000)
    assert settings.get("transcribe/model") == "small"


def test_a_model_from_a_mirror_that_voxdesk_could_not_check_is_listed_as_not_verified(qtbot, settings, tmp_path):
    from desktop.core.common.download_sources import DownloadSources
    from tests.core.transcription.test_model_sources import zero_model_files
    from tests.helpers.http_server import FileServer

    with FileServer(zero_model_files("Systran/faster-whisper-large-v1")) as mirror:
        address = mirror.base_url
        store = ModelStore(models_dir(), sources=ModelSources(downloads=DownloadSources.fixed(address)))
        store.download("large-v1", "ct2")
    runner = JobRunner()
    bar = OptionsBar(settings, store, runner)
    qtbot.addWidget(bar)
    try:
        listed(bar, qtbot)
        combo = bar.model_combo
        index = combo.findData("large-v1")
        assert combo.itemText(index) == "✓ large-v1 (not verified)"
        tooltip = combo.itemData(index, Qt.ItemDataRole.ToolTipRole)
        assert f"downloaded from {address}" in tooltip and "IT department" in tooltip
        assert combo.itemText(combo.findData("tiny")) == "tiny (75 MB download)"
    finally:
        bar.shutdown()
        qtbot.waitUntil(lambda: not runner.busy, timeout=JOB_TIMEOUT_MS)
