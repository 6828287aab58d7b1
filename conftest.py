"""Collect every notebook under nbs/ as one pytest item, run in its own process the way nbdev_test runs it.

One process per notebook keeps notebooks isolated (numba caches, joblib/loky pools, dask clusters) and lets
pytest print its usual closing line, which CI reads. Where processes fork (POSIX), each notebook's process is forked
from tools/nbserver.py, which has imported the notebooks' common modules once: a notebook no longer spends seconds of
CPU importing numpy, pandas, scikit-learn, matplotlib, numba, nbdev and the package (CIAUTO_NB_FORK=0 starts each one
afresh instead). `--nb-flags slow` also runs the cells flagged `#| slow` and
sets `CIAUTO_SLOW=1` in the notebook's environment (tutorials gate their slow cells on it, so that
`jupyter nbconvert --execute` skips them by default).

The notebooks' processes start as soon as collection ends, one more at a time than the machine has cores, up to
three (`CIAUTO_NB_WORKERS` sets another number; 1 runs them one after another), and pytest reports them in order as
each finishes: the suite's wall time is about halved on the CI machine. The tests under tests/ that read no notebook's
output run first, in pytest's own process while the queue runs the notebooks; the site's (tests/test_docs.py), which
shows the executed copies, start after the last notebook has finished. A test under tests/ whose work is one process
that reads no notebook's output (the benchmarks' quick modes) declares it with `@pytest.mark.background(cmd, env)` and
reads its result from the `background` fixture: the process joins the queue after the notebooks, and pytest reports
such tests after the others, so they run on the queue's workers while pytest runs the other tests under tests/ (the
site build), instead of one after another at the end. The queue starts the longest notebooks first
(`EXPECTED_SECONDS`), so that the two workers do not end with one long notebook running alone.

`--cpu-durations` lists each test's wall and CPU seconds at the end (before pytest's closing line). On a machine shared
with other work the wall seconds grow with the load, the CPU seconds much less (multi-threaded BLAS and OpenMP still
spin longer), so they are the profile to compare there; a test that keeps both cores busy uses up to twice as many CPU
seconds as wall seconds.
"""
import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).parent
_SESSION_START = time.perf_counter()  # the queue log's zero (CIAUTO_QUEUE_LOG)
EXECUTED = "_executed"  # git-ignored: the executed copies of the notebooks, for the documentation site
NOTEBOOK_TIMEOUT = int(os.environ.get("CIAUTO_NB_TIMEOUT", "1500"))
# Seconds each queued job took in the suite on the quiet two-core CI machine (a clean clone of 3afae35 under .ci/run,
# pytest's --durations; a notebook's figure is how long pytest waited for it, two running at a time), by test id, those
# of 5 s or more. The queue starts the longest first (longest-processing-time scheduling: the last job to finish is a
# short one); jobs not listed count as DEFAULT_SECONDS. Only the order depends on these numbers, never a result.
EXPECTED_SECONDS = {
    "nbs/02_cvt.ipynb::02_cvt": 79, "nbs/tutorials/reproducing_the_study.ipynb::reproducing_the_study": 63,
    "nbs/06c_study_experiments.ipynb::06c_study_experiments": 44,
    "nbs/03b_compare.ipynb::03b_compare": 39, "tests/test_docs.py::test_nbdev_proc_nbs_succeeds_on_every_notebook": 37,
    "tests/test_bench.py::test_limits_quick_reproduces_ciauto": 37, "nbs/10_cli.ipynb::10_cli": 30,
    "nbs/08c_subgroups_search.ipynb::08c_subgroups_search": 25,
    "nbs/08b_subgroups_results.ipynb::08b_subgroups_results": 24,
    "nbs/tutorials/your_own_search.ipynb::your_own_search": 22,
    "nbs/tutorials/honest_comparisons.ipynb::honest_comparisons": 22,
    "nbs/tutorials/conformal_anomaly_detection.ipynb::conformal_anomaly_detection": 21,
    "tests/test_bench.py::test_bench_quick[adapters]": 19,
    "nbs/course/06_prediction_sets.ipynb::06_prediction_sets": 16, "tests/test_bench.py::test_bench_quick[cli]": 16,
    "nbs/course/02_nested_vs_bbc.ipynb::02_nested_vs_bbc": 15, "nbs/08e_subgroups_gaps.ipynb::08e_subgroups_gaps": 13,
    "nbs/course/00_checks.ipynb::00_checks": 12, "nbs/07b_prediction_sets.ipynb::07b_prediction_sets": 11,
    "tests/test_bench.py::test_bench_quick[metrics]": 11, "nbs/00a_metrics.ipynb::00a_metrics": 10,
    "nbs/course/04_selected_interval.ipynb::04_selected_interval": 9, "tests/test_bench.py::test_bench_quick[bbc]": 9,
    "nbs/03_bbc.ipynb::03_bbc": 9, "tests/test_bench.py::test_bench_quick[subgroups]": 8,
    "tests/test_bench.py::test_nested_quick_reports_costs_and_bias": 7,
    "nbs/00_checks.ipynb::00_checks": 7, "nbs/06b_study_methods.ipynb::06b_study_methods": 6,
    "tests/test_bench.py::test_bench_quick[yardsticks]": 6, "tests/test_bench.py::test_bench_quick[intervals]": 6,
    "tests/test_bench.py::test_bench_quick[study_checks]": 5,
}
DEFAULT_SECONDS = 5  # the jobs not listed took less
# With several jobs queued, the package's most used numba kernels are compiled (from a clean clone; .ci/run sets
# NUMBA_CACHE_DIR) or loaded from numba's cache once, before the first job starts: by the fork server, whose children
# then start with them in memory (tools/nbserver.py, `warm_up`), or, without it, by a first job of its own. Jobs that
# start together would otherwise each compile them (up to four times each from a clean clone).
WARM_UP = [sys.executable, str(ROOT / "tools" / "nbserver.py"), "--warm-up"]


def pytest_configure(config):
    config.addinivalue_line("markers", "background(cmd, env=None, timeout=600): the test's one process, started with "
                            "the notebooks' queue; the test reads its (returncode, stdout, stderr) from `background`")


def pytest_addoption(parser):
    parser.addoption("--nb-flags", default="", help="space-separated nbdev test flags to run (e.g. 'slow')")
    parser.addoption("--cpu-durations", action="store_true",
                     help="list every test's CPU seconds (its processes' and pytest's own) beside its wall seconds")


def _cpu_seconds():
    "CPU seconds used so far by this process and by its finished child processes (user + system)."
    import resource  # Unix only: imported here so that the suite runs without it when the option is not given
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


_CPU = {}  # {test id: (wall seconds, CPU seconds)}, with --cpu-durations


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    "Time each test by the clock and by CPU use (with --cpu-durations)."
    timed = item.config.getoption("--cpu-durations")
    wall, cpu = (time.perf_counter(), _cpu_seconds()) if timed else (None, None)
    start = time.perf_counter()
    yield
    if os.environ.get("CIAUTO_QUEUE_LOG"):  # the test's own start and end (pytest's process) beside the queue's jobs
        with open(os.environ["CIAUTO_QUEUE_LOG"], "a", encoding="utf-8") as f:
            f.write(f"{start - _SESSION_START:8.1f} {time.perf_counter() - _SESSION_START:8.1f} pytest {item.nodeid}\n")
    if timed:
        _CPU[item.nodeid] = (time.perf_counter() - wall, _cpu_seconds() - cpu + getattr(item, "forked_cpu", 0.0))


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    if not _CPU:
        return
    tr = terminalreporter
    tr.write_sep("=", "wall and CPU seconds per test (setup + call + teardown)")
    for nodeid, (wall, cpu) in sorted(_CPU.items(), key=lambda kv: -kv[1][1]):
        tr.write_line(f"{wall:8.1f} s wall {cpu:8.1f} s CPU  {nodeid}")
    tr.write_line(f"{sum(w for w, _ in _CPU.values()):8.1f} s wall {sum(c for _, c in _CPU.values()):8.1f} s CPU  "
                  f"in all ({len(_CPU)} tests)")


def _skipped(path):
    parts = path.relative_to(ROOT).parts
    if any(p.startswith(("_", ".")) for p in parts):
        return True
    return any((parent / ".notest").exists() for parent in path.parents)


def pytest_collect_file(parent, file_path):
    if file_path.suffix == ".ipynb" and file_path.is_relative_to(ROOT / "nbs") and not _skipped(file_path):
        return NotebookFile.from_parent(parent, path=file_path)


class NotebookFile(pytest.File):
    def collect(self):
        yield NotebookItem.from_parent(self, name=self.path.stem)


def _fork_server_wanted():
    "The notebooks run as children of tools/nbserver.py where processes fork (POSIX), unless CIAUTO_NB_FORK=0."
    return hasattr(os, "fork") and os.environ.get("CIAUTO_NB_FORK", "1") != "0"


def _notebook_workers(config):
    """How many queued processes run at once: CIAUTO_NB_WORKERS, or one more than the cores up to three (the CI machine
    has two: a notebook waits for a fraction of its time, on its pools' start-up, subprocesses and files, and the third
    process fills those gaps; the suite's timeline, CIAUTO_QUEUE_LOG, showed the two cores 70 % busy with two); one
    with --cpu-durations, whose per-test CPU seconds need the tests to run one after another."""
    if config.getoption("--cpu-durations"):
        return 1
    return max(1, int(os.environ.get("CIAUTO_NB_WORKERS", min(3, (os.cpu_count() or 1) + 1))))


def _script_job(cmd):
    "`python script.py args..` as a job of the fork server (a script, not `-c` or `-m`), or None."
    if len(cmd) >= 2 and cmd[0] == sys.executable and str(cmd[1]).endswith(".py") and Path(cmd[1]).is_file():
        return dict(script=str(cmd[1]), args=[str(a) for a in cmd[2:]])
    return None


def _read_text(path):
    "A process's output file, as text ('' when it was never written)."
    try:
        return Path(path).read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        return ""


class _ForkServer:
    """tools/nbserver.py, which imports the notebooks' common modules once and runs each notebook in a process forked
    from it (about 5 CPU seconds saved per process, a sixth of the suite's CPU), for the worker threads of a
    `_NotebookRunner`: each job is one JSON line to the server, its answers are read by one thread here."""

    def __init__(self, env, warm_up=True):
        import itertools
        import threading
        command = [sys.executable, str(ROOT / "tools" / "nbserver.py")] + ([] if warm_up else ["--no-warm-up"])
        self.proc = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     text=True)
        self.ids, self.lock, self.answers, self.cpu = itertools.count(), threading.Lock(), {}, {}
        self.ready = threading.Event()  # set once the server has imported and warmed up (or has ended)
        threading.Thread(target=self._read, daemon=True, name="nbserver").start()

    def _read(self):
        import queue
        for line in self.proc.stdout:
            try:
                answer = json.loads(line)
            except ValueError:  # not an answer (a module printed while the server imported it)
                continue
            if isinstance(answer, dict) and answer.get("ready"):
                self.ready.set()
            if isinstance(answer, dict) and "id" in answer:
                self.answers.setdefault(answer["id"], queue.Queue()).put(answer)
        with self.lock:  # the server has ended: every job still waiting falls back to a process of its own
            self.ended = True
            self.ready.set()
            for answers in self.answers.values():
                answers.put(None)

    ended = False

    def run(self, job, env, timeout):
        "The notebook job's (returncode, stdout, stderr), or None when the server has stopped."
        import queue
        import shutil
        import signal
        import tempfile
        tmp = Path(tempfile.mkdtemp(prefix="ciauto-nb-"))
        out, err = tmp / "stdout", tmp / "stderr"
        try:
            with self.lock:
                if self.ended:
                    return None
                job_id = next(self.ids)
                answers = self.answers.setdefault(job_id, queue.Queue())
                job = dict(job, id=job_id, env=env, stdout=str(out), stderr=str(err))
                self.proc.stdin.write(json.dumps(job) + "\n")
                self.proc.stdin.flush()
            started = answers.get()
            if started is None:
                return None
            try:
                done = answers.get(timeout=timeout)
            except queue.Empty:
                try:
                    os.killpg(started["pid"], signal.SIGKILL)  # the notebook with every process it started
                except OSError:  # it had not yet made its process group
                    os.kill(started["pid"], signal.SIGKILL)
                answers.get()
                return None, _read_text(out), f"{_read_text(err)}\nthe process did not finish within {timeout} s"
            if done is None:
                return None
            self.cpu[job.get("notebook", job.get("script"))] = done["cpu"]
            return done["rc"], _read_text(out), _read_text(err)
        except (OSError, ValueError):  # the server's pipe has closed
            return None
        finally:
            shutil.rmtree(tmp, ignore_errors=True)

    def close(self):
        try:
            self.proc.stdin.close()  # the server stops the children still running, then exits
            self.proc.wait(timeout=30)
        except Exception:
            self.proc.kill()


class _NotebookRunner:
    """Runs the selected notebooks' processes ahead of pytest, a few at a time, so both cores work while pytest reports
    the items in order: each item waits for its own process. Once the last notebook item is reported every notebook has
    finished, so tests/ (the site build shows the executed copies) still run after all of them."""

    def __init__(self, workers, server=None):
        from concurrent.futures import ThreadPoolExecutor
        self.pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="notebook")
        self.futures, self.procs, self.closed = {}, set(), False
        self.server = server  # a _ForkServer for the notebooks, or None: each in a process of its own

    def submit(self, nodeid, command, timeout=NOTEBOOK_TIMEOUT):
        self.futures[nodeid] = self.pool.submit(self._logged, nodeid, command, timeout)

    def result(self, nodeid, command, timeout=NOTEBOOK_TIMEOUT):
        "The job's (returncode, stdout, stderr): from the queue, or run now if it was not queued."
        future = self.futures.get(nodeid)
        return future.result() if future is not None else self._logged(nodeid, command, timeout)

    def _logged(self, nodeid, command, timeout):
        "`_run`, with the job's start and end times appended to the file CIAUTO_QUEUE_LOG names (when set)."
        log = os.environ.get("CIAUTO_QUEUE_LOG")
        start = time.perf_counter()
        try:
            return self._run(command, timeout)
        finally:
            if log:
                with open(log, "a", encoding="utf-8") as f:
                    end = time.perf_counter() - _SESSION_START
                    f.write(f"{start - _SESSION_START:8.1f} {end:8.1f} queue {nodeid}\n")

    def _run(self, command, timeout):
        cmd, env, *notebook = command
        if self.closed:
            return None, "", "the test session ended before this process ran"
        job = notebook[0] if notebook else _script_job(cmd)
        if job is not None and self.server is not None:
            result = self.server.run(job, env, timeout)
            if result is not None:  # None: the server has stopped; the notebook runs in a process of its own
                return result
        proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.procs.add(proc)
        try:
            out, err = proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            proc.kill()
            out, err = proc.communicate()
            return None, out, f"{err}\nthe process did not finish within {timeout} s"
        finally:
            self.procs.discard(proc)
        return proc.returncode, out, err

    def wait(self):
        "Wait until every queued process has ended (the warm-up too, which no test waits for)."
        from concurrent.futures import wait
        wait(list(self.futures.values()))

    def close(self):
        "Stop what is still queued or running (after -x, or an interrupt)."
        self.closed = True
        for proc in list(self.procs):
            proc.kill()
        if self.server is not None:
            self.server.close()
        self.pool.shutdown(wait=True, cancel_futures=True)


READS_EXECUTED = "tests/test_docs.py"  # the site shows the notebooks' executed copies: after the notebooks
REWRITES_SOURCES = "tests/test_sync.py"  # nbdev_export rewrites ciauto/*.py: nothing else may run meanwhile


def pytest_collection_modifyitems(session, config, items):
    """Tests with a background process are reported after the others: pytest would otherwise wait for their queued
    processes before the other tests under tests/, which can run in its own process meanwhile. The tests that rewrite
    the package's files come last of all, once every queued process has ended (each test waits for its own)."""
    def rank(item):
        if item.nodeid.startswith(REWRITES_SOURCES):
            return 2
        if item.get_closest_marker("background") is not None:
            return 1
        if item.nodeid.startswith("tests/") and not item.nodeid.startswith(READS_EXECUTED):
            return -1  # reads no notebook's output: runs in pytest's process while the queue runs the notebooks
        return 0
    items.sort(key=rank)  # stable: pytest's order within each group


def pytest_runtest_setup(item):
    if item.nodeid.startswith(REWRITES_SOURCES):
        runner = getattr(item.config, "_notebook_runner", None)
        if runner is not None:
            runner.wait()


def _background_command(item):
    "The (cmd, env, timeout) a test declares with `@pytest.mark.background`, or None."
    mark = item.get_closest_marker("background")
    if mark is None:
        return None
    cmd, env = mark.args[0], (mark.args[1] if len(mark.args) > 1 else None) or dict(os.environ)
    return (cmd, env), mark.kwargs.get("timeout", 600)


def pytest_collection_finish(session):
    config = session.config
    if config.option.collectonly:
        return
    jobs = [(item.nodeid, item.command(), NOTEBOOK_TIMEOUT) for item in session.items
            if isinstance(item, NotebookItem)]
    # with --cpu-durations the jobs run one at a time in pytest's order, each inside its own test's measurement
    if not config.getoption("--cpu-durations"):
        # the notebooks first, longest first: the tests under tests/ wait for the last of them; then the background
        # processes, longest first, which run while pytest runs those tests (stable: ties keep pytest's order)
        jobs.sort(key=lambda job: -EXPECTED_SECONDS.get(job[0], DEFAULT_SECONDS))
        jobs += sorted([(item.nodeid, *bg) for item in session.items if (bg := _background_command(item)) is not None],
                       key=lambda job: -EXPECTED_SECONDS.get(job[0], DEFAULT_SECONDS))
    if not jobs:
        return
    workers = _notebook_workers(config)
    # not with --cpu-durations, which has one worker: there each test's CPU seconds include its compiles
    warm = len(jobs) > workers > 1
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    forkable = any(len(command) > 2 or _script_job(command[0]) for _, command, _ in jobs)
    server = None
    if forkable and _fork_server_wanted():  # each job's own environment is set in its child
        server = _ForkServer(env, warm_up=warm)
    elif warm:
        jobs.insert(0, ("numba warm-up", (WARM_UP, env), NOTEBOOK_TIMEOUT))
    config._notebook_runner = runner = _NotebookRunner(workers, server)
    for nodeid, command, timeout in jobs:
        runner.submit(nodeid, command, timeout)
    if server is not None and warm:
        # pytest's own tests call some of the same kernels: they start once the server's warm-up has put them in the
        # cache (it keeps both cores busy meanwhile), instead of compiling them a second time beside it
        server.ready.wait(timeout=NOTEBOOK_TIMEOUT)


@pytest.fixture
def background(request):
    "The (returncode, stdout, stderr) of the process the test declares with `@pytest.mark.background`."
    declared = _background_command(request.node)
    assert declared is not None, "the `background` fixture needs @pytest.mark.background(cmd, env) on the test"
    runner = getattr(request.config, "_notebook_runner", None) or _NotebookRunner(1)
    result = runner.result(request.node.nodeid, *declared)
    job = _script_job(declared[0][0])
    if runner.server is not None and job is not None:  # its CPU seconds, for --cpu-durations (see NotebookItem)
        request.node.forked_cpu = runner.server.cpu.get(job["script"], 0.0)
    return result


def pytest_sessionfinish(session, exitstatus):
    runner = getattr(session.config, "_notebook_runner", None)
    if runner is not None:
        runner.close()


class NotebookItem(pytest.Item):
    def command(self):
        "The notebook's process: tools/nbrun.py runs it as nbdev_test does and saves the executed copy."
        flags = self.config.getoption("--nb-flags").split()
        # the documentation build (tests/test_docs.py, tools/docs.sh) shows the saved copy on the notebook's page
        # instead of executing it a second time
        saved = ROOT / EXECUTED / self.path.relative_to(ROOT / "nbs")
        cmd = [sys.executable, str(ROOT / "tools" / "nbrun.py"), str(self.path), "--flags", " ".join(flags),
               "--save", str(saved)]
        env = dict(os.environ, IN_TEST="1", PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        if "slow" in flags:  # tutorials gate their paper-scale cells on this too (`RUN_SLOW`)
            env["CIAUTO_SLOW"] = "1"
        # the same run as a job of the fork server (tools/nbserver.py), which the queue uses when it has one
        return cmd, env, dict(notebook=str(self.path), flags=flags, save=str(saved))

    def runtest(self):
        runner = getattr(self.config, "_notebook_runner", None)
        if runner is None:  # collected without the session's start (e.g. run by a plugin): one at a time
            runner = self.config._notebook_runner = _NotebookRunner(1)
        returncode, out, err = runner.result(self.nodeid, self.command())
        if runner.server is not None:  # its CPU seconds, for --cpu-durations: it is the server's child, not pytest's
            self.forked_cpu = runner.server.cpu.get(str(self.path), 0.0)
        if returncode != 0:
            raise NotebookFailure((out[-4000:] + "\n" + err[-8000:]).strip())

    def repr_failure(self, excinfo):
        if isinstance(excinfo.value, NotebookFailure):
            return str(excinfo.value)
        return super().repr_failure(excinfo)

    def reportinfo(self):
        return self.path, 0, f"notebook {self.path.relative_to(ROOT)}"


class NotebookFailure(Exception):
    pass
