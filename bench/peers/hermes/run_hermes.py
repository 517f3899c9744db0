"""Times Hermes-agent's own ContextCompressor.compress() on transcripts sent by bench/hermes.bench.ts.

Usage: HERMES_AGENT_DIR=<hermes-agent checkout> python3 run_hermes.py MODE RUNS, JSON lines in and out

MODE is `fallback` (every summarizer call raises a generic error, so Hermes inserts its deterministic fallback
summary) or `stub` (the summarizer returns a fixed text). Nothing reaches a network: Hermes' LLM router module
(agent.auxiliary_client) and its credential pool are replaced before the compressor is imported, so no provider
SDK or HTTP client is loaded.

Each input line is {"id": str, "context_length": int, "messages": [OpenAI chat messages]}, optionally with
"runs": int to override RUNS for that line (0 for a warm-up pass). For each line the driver calls
compress(messages, force=True) once to warm up, then RUNS more times, each on a fresh
ContextCompressor built outside the timed region, and prints one JSON line:
{"id", "ms": [per-run milliseconds], "messages_in", "messages_out", "fallback_used"}.
This file is condense's own driver; no Hermes code is copied here.
"""

import contextlib
import copy
import json
import os
import sys
import tempfile
import time
import types

STUB_SUMMARY = "STUB SUMMARY"


class _Message:
    def __init__(self, content):
        self.content = content


class _Choice:
    def __init__(self, content):
        self.message = _Message(content)


class _Response:
    def __init__(self, content):
        self.choices = [_Choice(content)]


def _install_llm_stub(mode):
    """Replaces agent.auxiliary_client with the three names the compressor imports from it."""
    module = types.ModuleType("agent.auxiliary_client")

    def call_llm(**_kwargs):
        if mode == "fallback":
            # Generic on purpose: not an auth, quota or network error, so Hermes falls back instead of aborting.
            raise RuntimeError("stub summarizer failure")
        return _Response(STUB_SUMMARY)

    module.call_llm = call_llm
    # The real check looks for connection error types and phrases; the stub's error has none.
    module._is_connection_error = lambda _error: False
    module.aux_interrupt_protection = lambda active=True: contextlib.nullcontext()
    sys.modules["agent.auxiliary_client"] = module
    # The summary path imports a helper module that pulls in credential handling (httpx and provider auth) for
    # one constant; a stand-in with that constant keeps those dependencies out.
    credentials = types.ModuleType("agent.credential_pool")
    credentials.STATUS_EXHAUSTED = "exhausted"
    sys.modules["agent.credential_pool"] = credentials


def main():
    mode, runs = sys.argv[1], int(sys.argv[2])
    if mode not in ("fallback", "stub"):
        raise SystemExit(f"unknown mode {mode!r}: use fallback or stub")
    hermes_dir = os.environ.get("HERMES_AGENT_DIR")
    if not hermes_dir or not os.path.isfile(os.path.join(hermes_dir, "agent", "context_compressor.py")):
        raise SystemExit("HERMES_AGENT_DIR must point at a hermes-agent checkout (agent/context_compressor.py)")
    os.environ.setdefault("HERMES_HOME", tempfile.mkdtemp(prefix="hermes-home-"))
    sys.path.insert(0, hermes_dir)
    _install_llm_stub(mode)
    import logging

    logging.disable(logging.CRITICAL)
    from agent.context_compressor import ContextCompressor

    def fresh(context_length):
        return ContextCompressor(model="stub-model", quiet_mode=True, config_context_length=context_length)

    # readline, not iteration: the bench sends one transcript at a time and waits for its answer.
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        if not line.strip():
            continue
        item = json.loads(line)
        messages, context_length = item["messages"], item["context_length"]
        output = fresh(context_length).compress(copy.deepcopy(messages), force=True)
        times = []
        fallback_used = False
        for _ in range(item.get("runs", runs)):
            compressor = fresh(context_length)
            copied = copy.deepcopy(messages)
            start = time.perf_counter()
            output = compressor.compress(copied, force=True)
            times.append((time.perf_counter() - start) * 1000)
            fallback_used = bool(getattr(compressor, "_last_summary_fallback_used", False))
        print(
            json.dumps(
                {
                    "id": item["id"],
                    "ms": times,
                    "messages_in": len(messages),
                    "messages_out": len(output),
                    "fallback_used": fallback_used,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
