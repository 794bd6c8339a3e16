"""The wheel table: PyTorch's ROCm index and CTranslate2's ROCm archive for each card and ROCm release."""
import pytest

from desktop.core.gpu.wheels import (
    CT2_RELEASES,
    TORCH_INDEX_ROCM6,
    TORCH_INDEX_ROCM7,
    TORCH_INDEX_ROCM72,
    ct2_wheel,
    gfx_target,
    torch_index,
)

CT2_TARGETS = ["gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx1150", "gfx1151", "gfx1200", "gfx1201"]


@pytest.mark.parametrize("gfx", CT2_TARGETS)
def test_every_listed_target_on_rocm_7_2_gets_ctranslate2s_rocm_archive(gfx):
    choice = ct2_wheel(gfx + ":sramecc-:xnack-", "7.2.1", "4.7.2", "cp312")
    assert choice.archive_url == f"{CT2_RELEASES}/v4.7.2/rocm-python-wheels-Linux.zip"
    assert choice.wheel_prefix == "ctranslate2-4.7.2-cp312-cp312-"
    assert gfx in choice.reason


@pytest.mark.parametrize("gfx", CT2_TARGETS)
@pytest.mark.parametrize("rocm", ["6.2.4", "6.4.1", "7.1.0", None])
def test_a_listed_target_on_another_rocm_keeps_the_cpu_wheel_and_says_which_rocm_it_needs(gfx, rocm):
    choice = ct2_wheel(gfx, rocm, "4.7.2", "cp312")
    assert choice.archive_url is None and "ROCm 7.2" in choice.reason


@pytest.mark.parametrize("gfx", ["gfx1031", "gfx1103", "gfx906", "gfx90a"])
def test_an_unlisted_target_keeps_the_cpu_wheel_with_a_sentence(gfx):
    choice = ct2_wheel(gfx, "7.2.0", "4.7.2", "cp312")
    assert choice.archive_url is None
    assert f"no ROCm build for {gfx}" in choice.reason


def test_an_override_makes_a_card_use_the_targets_code_it_runs():
    assert ct2_wheel("gfx1031", "7.2.0", "4.8.5", "cp311", hsa_override="10.3.0").archive_url is not None


def test_a_ctranslate2_before_4_7_has_no_rocm_build():
    assert ct2_wheel("gfx1100", "7.2.0", "4.6.3", "cp312").archive_url is None


def test_a_company_mirror_replaces_the_release_address():
    choice = ct2_wheel("gfx1100", "7.2", "4.8.5", "cp312", base="https://mirror.example.com/ct2/")
    assert choice.archive_url == "https://mirror.example.com/ct2/v4.8.5/rocm-python-wheels-Linux.zip"


@pytest.mark.parametrize("gfx", ["gfx1200", "gfx1201"])
@pytest.mark.parametrize("rocm", ["6.4.1", "7.0.2", "7.2.0", None])
def test_rdna4_gets_the_rocm_7_build_of_pytorch(gfx, rocm):
    choice = torch_index(gfx, rocm)
    assert choice.index == TORCH_INDEX_ROCM7 and choice.system_rocm_too_old is None


@pytest.mark.parametrize("gfx", ["gfx1200", "gfx1201"])
def test_rdna4_on_a_rocm_before_6_4_1_is_told_to_update_rocm(gfx):
    choice = torch_index(gfx, "6.2.4")
    assert choice.index == TORCH_INDEX_ROCM7
    assert "6.4.1" in choice.system_rocm_too_old and "6.2.4" in choice.system_rocm_too_old


@pytest.mark.parametrize("rocm, too_old", [("7.2.0", False), ("7.1.1", True), ("6.4.1", True), (None, False)])
def test_strix_halo_needs_pytorch_for_rocm_7_2(rocm, too_old):
    choice = torch_index("gfx1151", rocm)
    assert choice.index == TORCH_INDEX_ROCM72
    assert (choice.system_rocm_too_old is not None) is too_old


@pytest.mark.parametrize("gfx", ["gfx1030", "gfx1100", "gfx1031", "gfx90a"])
def test_older_cards_keep_what_works_for_them(gfx):
    assert torch_index(gfx, "6.2.4").index == TORCH_INDEX_ROCM6
    assert torch_index(gfx, "7.0.0").index == TORCH_INDEX_ROCM7
    assert torch_index(gfx, None).index == TORCH_INDEX_ROCM7


def test_gfx_targets_are_read_from_what_torch_and_rocminfo_print():
    assert gfx_target("gfx90a:sramecc+:xnack-") == "gfx90a"
    assert gfx_target("AMD Ryzen 7 8700G") is None


def test_the_installer_asks_the_table_through_the_command_line_and_hears_why():
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[3]
    answer = subprocess.run([sys.executable, "-m", "desktop.core.gpu.wheels", "torch-index", "--gfx", "gfx1201",
                             "--rocm", "6.2.4"], capture_output=True, text=True, timeout=60, cwd=root,
                            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(root)})
    assert answer.returncode == 0 and answer.stdout.strip() == TORCH_INDEX_ROCM7
    assert "RDNA4" in answer.stderr and "needs ROCm 6.4.1 or later; ROCm 6.2.4 is installed" in answer.stderr
