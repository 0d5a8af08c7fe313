# The README's two commands: `make run` builds and starts almanac, `make test` runs every test.
# Each installs what it needs when it is missing.

SWIFT ?= swift

.PHONY: run test build deps completions

run: deps
	@$(SWIFT) build -c release --static-swift-stdlib --product almanac-fetch
	@$(SWIFT) build -c release --static-swift-stdlib --product almanac
	@.build/release/almanac

test: deps
	$(SWIFT) build
	$(SWIFT) test
	$(SWIFT) run -c release almanac-bench --quick

build: deps
	$(SWIFT) build

deps:
	@scripts/install-deps

# Regenerates the committed completion scripts from the binary.
completions: build
	.build/debug/almanac --generate-completion-script bash > completions/almanac.bash
	.build/debug/almanac --generate-completion-script zsh > completions/_almanac
	.build/debug/almanac --generate-completion-script fish > completions/almanac.fish
