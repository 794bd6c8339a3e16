"""The doctor's answer in one sentence for the person at the computer, above the rows for IT.

The rows ("PyTorch build", "GPU target (gfx)") say what was found in the words IT uses; this says
what it means for the work: whether transcription runs, whether it uses the graphics card, and if
not, why, in words anyone can repeat to IT. It is chosen from the rows alone, so the window, the
command line and the tests agree.
"""
from __future__ import annotations

from desktop.core.common.i18n import N_, Message
from desktop.core.gpu.doctor import DoctorResult, Status

# The checks that decide whether the graphics card can be used, in the order a problem is explained:
# the first one that is not in order is the reason given.
_GPU_REASONS: tuple[tuple[str, Message], ...] = (
    ("torch_build", N_("Verdict", "the program that drives it is not installed")),
    ("device_access", N_("Verdict", "this user account is not yet allowed to use it")),
    ("rocm_runtime", N_("Verdict", "its driver software (ROCm) is missing or does not answer")),
    ("gfx_target", N_("Verdict", "the installed software has no support for this graphics card model")),
    ("gpu_smoke_test", N_("Verdict", "it failed a short test calculation")),
)
# Without these a recording cannot be opened at all.
_CANNOT_TRANSCRIBE = ("audio_decode",)


def plain_verdict(result: DoctorResult) -> Message:
    """One sentence: everything ready, working but slowly (and why), or what stops the work."""
    checks = {check.id: check for check in result.checks}
    if any(checks[name].status is Status.ERROR for name in _CANNOT_TRANSCRIBE if name in checks):
        return N_("Verdict", "VoxDesk cannot open recordings yet. Please show the rows below to your IT "
                             "support; each one says how to fix it.")
    report = result.report
    problems = sum(check.status in (Status.ERROR, Status.WARNING) for check in result.checks)
    if report.gpu_available:
        if problems:
            return N_("Verdict", "Transcription works and uses the graphics card. {count} smaller points below "
                                 "could be improved.").format(count=problems)
        return N_("Verdict", "Everything is ready: transcription uses the graphics card.")
    if report.has_amd_gpu or report.gpu_present:
        reason = next((text for name, text in _GPU_REASONS
                       if name in checks and checks[name].status in (Status.ERROR, Status.WARNING)),
                      N_("Verdict", "it did not pass the checks below"))
        return N_("Verdict", "Transcription works, but slowly: the graphics card is not used, because "
                             "{reason}.").format(reason=reason)
    if problems:
        return N_("Verdict", "Transcription works, on the processor (this computer has no graphics card "
                             "VoxDesk can use). {count} points below could be improved.").format(count=problems)
    return N_("Verdict", "Everything is ready. Transcription runs on the processor, because this computer has no "
                         "graphics card VoxDesk can use.")
