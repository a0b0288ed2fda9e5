# Capstan: `make run` starts a local etcd and the API server, `make run-node` adds containerd and the
# node agent; `make test` runs every test suite. Every target installs what it needs (node modules,
# Debian's etcd-server, containerd, runc, the CNI plugins) when it is missing.

SHELL := /bin/bash
NODE ?= node
NPM ?= npm
TEST_CONCURRENCY ?= 2

.PHONY: all deps etcd containerd node-images build generate verify run run-node user deploy-certs test test-unit test-integration test-e2e test-node-image bench soak image image-test clean

all: build

node_modules/.package-lock.json: package.json package-lock.json
	$(NPM) ci --no-audit --no-fund
	@touch $@

deps: node_modules/.package-lock.json

etcd:
	@hack/install-etcd.sh

# What the node agent runs on: containerd, runc, the CNI plugins, iptables, and the tools that build
# its offline images (busybox-static, umoci, gcc). Root needed to install.
containerd:
	@hack/install-node.sh

# The offline images capstan.local/busybox:1 and capstan.local/pause:1 (_output/node-images),
# rebuilt only when their inputs change.
node-images: containerd
	@hack/node-images/build.sh >/dev/null

build: deps
	$(NPM) run build --silent

generate: build
	$(NODE) dist/hack/gen-resources.js
	$(NODE) dist/hack/gen-proto.js
	$(NODE) dist/hack/gen-schemas.js
	$(NODE) dist/hack/gen-patch-meta.js
	$(NODE) dist/hack/gen-ssa-types.js
	$(NODE) dist/hack/gen-cri-proto.js
	$(NPM) run build --silent

verify: build
	$(NODE) dist/hack/gen-resources.js --check
	$(NODE) dist/hack/gen-proto.js --check
	$(NODE) dist/hack/gen-schemas.js --check
	$(NODE) dist/hack/gen-patch-meta.js --check
	$(NODE) dist/hack/gen-ssa-types.js --check
	$(NODE) dist/hack/gen-cri-proto.js --check

run: build etcd
	$(NODE) dist/hack/run-local.js

# `make run` plus a containerd under _output/containerd and the node agent as this machine's node
# (README "Node agent"); root needed. SERVER_ARGS go to the API server, NODE_ARGS to the node agent.
run-node: build etcd node-images
	$(NODE) dist/hack/run-node.js $(SERVER_ARGS) $(if $(NODE_ARGS),-- $(NODE_ARGS))

# A client certificate and kubeconfig for a user of `make run`: make user NAME=alice GROUP=dev,qa
user: build
	$(NODE) dist/hack/add-user.js $(NAME) $(if $(GROUP),--group $(GROUP))

# Every certificate of deploy/ (README, "Running in production"); the defaults are the hosts of
# deploy/compose: make deploy-certs OUT=/srv/pki DEPLOY_CERTS_ARGS="--etcd-member cp-1=192.168.10.11 ..."
deploy-certs: build
	$(NODE) dist/hack/gen-deploy-certs.js $(or $(OUT),deploy/compose/certs) $(DEPLOY_CERTS_ARGS)

# Unit tests sit beside the code; integration and e2e tests start their own etcd (and server), the
# node agent's their own containerd (root needed). Slow tests (*.slow.test.ts) run in their own targets.
# A failing run ends by naming its failing tests, one line each (hack/test-failures.ts); the spec
# reporter's whole report, with stacks, is in _output/test-report.txt.
test: build etcd verify node-images
	@mkdir -p _output
	$(NODE) --test --test-concurrency=$(TEST_CONCURRENCY) --test-timeout=300000 \
		--test-reporter=tap --test-reporter-destination=stdout \
		--test-reporter=spec --test-reporter-destination=_output/test-report.txt \
		$$(find dist/internal dist/hack dist/proto -name '*.test.js' | sort) \
		$$(find dist/test -name '*.test.js' -not -name '*.slow.test.js' | sort) \
		|| { $(NODE) dist/hack/test-failures.js _output/test-report.txt; exit 1; }

test-unit: build
	$(NODE) --test $$(find dist/internal dist/hack dist/proto -name '*.test.js' | sort)

test-integration: build etcd
	$(NODE) --test --test-concurrency=$(TEST_CONCURRENCY) $$(find dist/test -name '*.test.js' -not -path '*/e2e/*' -not -name '*.slow.test.js' | sort)

test-e2e: build etcd node-images
	$(NODE) --test --test-concurrency=1 $$(find dist/test/e2e -name '*.test.js' -not -name '*.slow.test.js' | sort)

# The Capstan API server run by the node agent as a static pod from the container image (`make
# image`, built here when its inputs changed): several minutes, so not part of `make test`.
test-node-image: build etcd node-images
	$(NODE) --test --test-concurrency=1 --test-timeout=900000 $$(find dist/test -name '*.slow.test.js' | sort)

# The benchmark suite (bench/README.md): about 20 minutes on 2 cores; each figure is printed as a ratio
# against a baseline measured in the same run. BENCH_ARGS="--only creates,get", "--part=write" or "--cpu-prof".
# Without BENCH_ARGS the suite runs in its five parts (api, write, chain, serving, nodes), one process and one
# results file (bench/results/<date>-<part>.json) each, every part under the 10 minute watchdog.
BENCH_PARTS ?= api write chain serving nodes
bench: build etcd node-images
	$(NODE) --test --test-reporter=dot dist/bench/*.test.js
	@if [ -n "$(BENCH_ARGS)" ]; then $(NODE) dist/bench/run.js $(BENCH_ARGS); else \
	  rc=0; for p in $(BENCH_PARTS); do echo "== bench part $$p"; $(NODE) dist/bench/run.js --part=$$p || rc=1; done; exit $$rc; fi

# The soak (hack/soak): SOAK_DURATION (default 60m) of mixed load on two API servers over a three-member
# etcd cluster with API server restarts, etcd compactions and an etcd member restart on a schedule; writes
# bench/results/soak-<date>.{html,png,json} and fails on a defect-class event. Not part of `make test`.
SOAK_DURATION ?= 60m
soak: build etcd
	SOAK_DURATION=$(SOAK_DURATION) $(NODE) dist/hack/soak/main.js

# The container image (README "Container image"): an OCI layout and archive in _output/image, built
# offline from Debian packages and npm (root needed; installs mmdebstrap, umoci, containerd, runc).
image: build
	hack/build-image.sh

# Builds the image when its inputs changed, runs it with containerd's ctr against a local etcd and
# checks /readyz over HTTPS (also part of `make test`).
image-test: build etcd
	$(NODE) --test dist/test/image/*.test.js

clean:
	rm -rf dist _output
