"""The doctor's "Model downloads" check, against real servers on 127.0.0.1."""
from __future__ import annotations

from desktop.core.common.download_sources import DownloadSources, probe_all
from desktop.core.gpu.doctor import CHECK_IDS, Status, run_doctor
from desktop.core.gpu.download_check import check_model_downloads
from desktop.core.gpu.device import detect
from tests.fixtures.rocm.fakes import doctor_probes
from tests.helpers.http_server import FileServer, closed_port_url


def dead() -> str:
    return closed_port_url().rstrip("/")


def test_when_hugging_face_refuses_but_the_mirror_answers_automatic_is_fine_and_says_which_works():
    with FileServer() as mirror:
        check = check_model_downloads(DownloadSources(official=dead(), mirror=mirror.base_url, probe_timeout=2))
    assert check.id == "model_downloads" and check.status is Status.OK
    assert check.finding == "Downloads work from hf-mirror.com (mirror in mainland China); Hugging Face cannot be " \
                            "reached from here."


def test_a_chosen_source_that_cannot_be_reached_is_a_warning_naming_the_one_that_works():
    with FileServer() as mirror:
        sources = DownloadSources(choice="huggingface", official=dead(), mirror=mirror.base_url, probe_timeout=2)
        check = check_model_downloads(sources)
    assert check.status is Status.WARNING
    assert "The chosen download source (Hugging Face) cannot be reached, but hf-mirror.com" in check.finding
    assert check.fix == "Choose hf-mirror.com (mirror in mainland China) in Settings → Downloads."


def test_a_company_mirror_is_tried_too():
    with FileServer() as company:
        sources = DownloadSources(choice="custom", custom_url=company.base_url, official=dead(), mirror=dead(),
                                  probe_timeout=2)
        check = check_model_downloads(sources, shared_folders=1)
    assert check.status is Status.OK
    assert check.finding.startswith("Downloads work from Company mirror; Hugging Face, hf-mirror.com")
    assert check.finding.endswith("Shared model folders in use: 1.")


def test_with_no_source_answering_the_fix_names_import_and_the_shared_folder():
    check = check_model_downloads(DownloadSources(official=dead(), mirror=dead(), probe_timeout=2))
    assert check.status is Status.WARNING and check.finding.startswith("No download source answers")
    assert "Import model" in check.fix and "shared model folder" in check.fix


def test_the_full_doctor_run_ends_with_the_model_downloads_check(tmp_path):
    with FileServer() as official:
        probes = doctor_probes(tmp_path)
        probes.probe_downloads = probe_all  # the real probe, of the servers started here
        result = run_doctor(probes=probes, report=detect(run_smoke_test=False, probes=probes.machine),
                            downloads=DownloadSources(official=official.base_url, mirror=dead(), probe_timeout=2))
    assert [c.id for c in result.checks] == list(CHECK_IDS)
    assert result.check("model_downloads").status is Status.OK
    assert "Downloads work from Hugging Face" in result.check("model_downloads").finding


def test_a_company_mirror_asked_over_https_on_a_plain_port_is_named_with_the_fix_not_as_unreachable():
    with FileServer() as mirror, FileServer() as company:
        host = f"127.0.0.1:{company.port}"
        sources = DownloadSources(choice="custom", custom_url=company.base_url.replace("http://", "https://"),
                                  official=dead(), mirror=mirror.base_url, probe_timeout=2)
        check = check_model_downloads(sources)
    assert check.status is Status.WARNING
    assert check.finding == (
        "The chosen download source (Company mirror) does not work, but hf-mirror.com (mirror in mainland China) "
        f"does. Company mirror: The server at {host} answers without encryption: its address must start with "
        "http:// instead of https://.")


def test_a_source_asked_over_http_on_a_tls_port_is_named_with_the_fix(tmp_path):
    from tests.helpers.tls import make_authority

    authority = make_authority(tmp_path / "ca")
    with FileServer() as official, FileServer(tls=authority.server_context()) as encrypted:
        host = f"127.0.0.1:{encrypted.port}"
        check = check_model_downloads(DownloadSources(official=official.base_url, mirror=f"http://{host}",
                                                      probe_timeout=2))
    assert check.status is Status.OK
    assert check.finding == (
        f"Downloads work from Hugging Face. hf-mirror.com (mirror in mainland China): The server at {host} expects an "
        "encrypted connection: its address must start with https:// instead of http://.")


def test_a_source_that_redirects_in_a_loop_is_named_as_a_loop():
    from tests.helpers.http_server import RedirectLoopServer

    with RedirectLoopServer(status=301) as looping, FileServer() as mirror:
        host = looping.base_url.removeprefix("http://")
        check = check_model_downloads(DownloadSources(official=looping.base_url, mirror=mirror.base_url,
                                                      probe_timeout=2))
    assert check.status is Status.OK
    assert check.finding == (
        "Downloads work from hf-mirror.com (mirror in mainland China). Hugging Face: The server at "
        f"{host} sends VoxDesk round in a loop of redirects, so nothing can be fetched from it.")
