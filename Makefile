# The README's two commands: `make run` and `make test`. Both set up .venv first.
VENV ?= .venv
PYTHON := $(VENV)/bin/python
APP_STAMP := $(VENV)/.voxdesk-app
TEST_STAMP := $(VENV)/.voxdesk-test
INSTALL_INPUTS := pyproject.toml packaging/install.sh

.PHONY: setup run test benchmark translations clean system-packages-app system-packages-test gpu-bundle

# System packages (PortAudio, Qt's X11 libraries, fonts; for the tests PulseAudio, espeak-ng, sox):
# checked on every call with one dpkg-query, installed only when something is missing.
system-packages-app:
	bash packaging/system-packages.sh app

system-packages-test:
	bash packaging/system-packages.sh test

setup: system-packages-app $(APP_STAMP)

$(APP_STAMP): $(INSTALL_INPUTS)
	bash packaging/install.sh --venv $(VENV)
	touch $@

$(TEST_STAMP): $(INSTALL_INPUTS)
	bash packaging/install.sh --venv $(VENV) --extras test
	touch $@ $(APP_STAMP)

run: setup
	$(VENV)/bin/voxdesk

test: system-packages-test $(TEST_STAMP)
	$(PYTHON) -m pytest $(PYTEST_ARGS)

benchmark: system-packages-test $(TEST_STAMP)
	$(PYTHON) benchmarks/run_benchmarks.py

# The folder benchmarks/gpu_check.sh runs on a GPU machine without internet (at most 60 MiB).
gpu-bundle: $(TEST_STAMP)
	$(PYTHON) benchmarks/gpu_bundle.py build/gpu-bundle

# Refresh resources/translations/*.ts from the code and compile the .qm the package ships.
translations: setup
	$(PYTHON) -m desktop.ui.common.i18n

clean:
	rm -rf $(VENV) build *.egg-info
