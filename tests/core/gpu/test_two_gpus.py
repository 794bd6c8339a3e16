"""Two AMD GPUs, a Radeon 780M in the processor and an RX 7900 XTX (captured rocminfo output): VoxDesk
uses the discrete card through HIP_VISIBLE_DEVICES, and the doctor warns that an override applies to both."""
from desktop.core.gpu.device import detect, parse_rocminfo
from desktop.core.gpu.doctor import Status, check_gpus
from desktop.core.gpu.multi_gpu import choose_discrete_gpu, chosen_gpu, use_discrete_gpu
from tests.fixtures.rocm.fakes import FIXTURES, RX7900XTX, doctor_probes, fake_torch, machine

TWO_GPUS = (FIXTURES / "rocminfo_780m_and_rx7900xtx.txt").read_text()


def two_gpu_probes(tmp_path, environ=None):
    return doctor_probes(tmp_path, machine(torch=fake_torch(gpu=RX7900XTX), sysfs="rx7900xtx", environ=environ,
                                           tools={"rocminfo": "rocminfo_780m_and_rx7900xtx.txt"}))


def test_the_discrete_card_is_chosen_and_made_the_only_one_processes_see():
    environ = {}
    chosen = choose_discrete_gpu(parse_rocminfo(TWO_GPUS), environ)
    assert chosen.agent.name == "gfx1100" and not chosen.integrated
    assert environ == {"HIP_VISIBLE_DEVICES": "1"}


def test_a_choice_made_by_hand_wins():
    environ = {"HIP_VISIBLE_DEVICES": "0"}
    assert choose_discrete_gpu(parse_rocminfo(TWO_GPUS), environ) is None
    assert environ == {"HIP_VISIBLE_DEVICES": "0"}


def test_one_gpu_changes_nothing():
    one = (FIXTURES / "rocminfo_780m.txt").read_text()
    environ = {}
    assert choose_discrete_gpu(parse_rocminfo(one), environ) is None and environ == {}
    assert chosen_gpu(parse_rocminfo(one)).agent.name == "gfx1103"


def test_the_doctor_warns_that_an_override_would_apply_to_both_gpus(tmp_path):
    probes = two_gpu_probes(tmp_path, {"HSA_OVERRIDE_GFX_VERSION": "11.0.0"})
    check = check_gpus(detect(run_smoke_test=False, probes=probes.machine), probes)
    assert check.status is Status.WARNING
    assert "HSA_OVERRIDE_GFX_VERSION=11.0.0 applies to every GPU" in check.finding
    assert check.fix == "HIP_VISIBLE_DEVICES=1 HSA_OVERRIDE_GFX_VERSION=11.0.0 voxdesk"


def test_without_an_override_the_doctor_says_which_card_is_used_and_why_not_to_set_one(tmp_path):
    probes = two_gpu_probes(tmp_path)
    check = check_gpus(detect(run_smoke_test=False, probes=probes.machine), probes)
    assert check.status is Status.INFO
    assert "Radeon RX 7900 XTX, through HIP_VISIBLE_DEVICES=1" in check.finding
    assert "would apply to both GPUs" in check.finding


def test_at_start_two_radeons_in_sysfs_make_the_discrete_one_the_only_one_seen():
    environ = {"PATH": ""}
    probes = machine(sysfs="two_radeons", tools={"rocminfo": "rocminfo_780m_and_rx7900xtx.txt"}, environ=environ)
    environ = dict(probes.environ)
    chosen = use_discrete_gpu(environ, probes)
    assert chosen.agent.marketing_name == "Radeon RX 7900 XTX" and environ["HIP_VISIBLE_DEVICES"] == "1"


def test_at_start_one_radeon_asks_no_tool_and_changes_nothing():
    asked = []
    probes = machine(sysfs="rx6700xt")
    probes.run_tool = lambda argv, timeout: asked.append(argv)
    environ = {}
    assert use_discrete_gpu(environ, probes) is None and environ == {} and asked == []
