"""The hierarchical roofline against an independent computation straight from ncu_report, on the
`--set full` captures; null on a `--set basic` one; the lesson's pair and the day-30 flaw."""

from __future__ import annotations

from pathlib import Path

import ncu_report
import pytest

from tests.many_kernels import BASIC, build
from viewer.analysis import roofline
from viewer.core.model import Report
from viewer.readers import read_metrics, read_report

ROOT = Path(__file__).resolve().parents[2]
H200 = ROOT / "tests" / "data" / "corpus" / "h200"
PROFILES = ROOT / "profiles"
FULL = (PROFILES / "naive.ncu-rep", PROFILES / "tiled.ncu-rep",
        H200 / "numba-naive.ncu-rep", H200 / "numba-tiled.ncu-rep")
BASIC_REPORT = H200 / "workloads-kernels-and-graph.ncu-rep"
# The units ncu_report gives these metrics in these captures: all already base units (bytes,
# bytes/s, hz, per cycle), so the raw values enter the formulas as they are.
PLAIN_UNITS = {"", "byte", "byte/s", "byte/cycle", "hz", "inst", "inst/cycle", "thread"}


def with_roofline_metrics(path: Path) -> Report:
    """The report as the app reads it: the views' metrics, then the roofline's on request."""
    report = read_report(path)
    found = read_metrics(report, range(len(report.kernels)), roofline.ROOFLINE_METRICS)
    report.add_metrics(found, roofline.ROOFLINE_METRICS)
    return report


def straight_from_ncu_report(path: Path) -> list[dict[str, float]]:
    """ncu's formulas on ncu_report's values, nothing of the app's involved."""
    out = []
    context = ncu_report.load_report(str(path))
    for r in range(context.num_ranges()):
        for i in range(context.range_by_idx(r).num_actions()):
            action = context.range_by_idx(r).action_by_idx(i)

            def v(name: str, action=action) -> float:
                metric = action.metric_by_name(name)
                assert metric is not None and metric.has_value(), name
                assert metric.unit() in PLAIN_UNITS, (name, metric.unit())
                return metric.as_double()

            op = "smsp__sass_thread_inst_executed_op_{}_pred_on.sum.per_cycle_elapsed"
            work = (v(op.format("fadd")) + v(op.format("fmul")) + 2 * v(op.format("ffma"))) \
                * v("smsp__cycles_elapsed.avg.per_second")
            expected = {
                "peak_fp32_flop_per_s": 2 * v("sm__sass_thread_inst_executed_op_ffma_pred_on"
                                              ".sum.peak_sustained")
                * v("sm__cycles_elapsed.avg.per_second"),
                "achieved_fp32_flop_per_s": work}
            for key, traffic, clock in (
                    ("dram", "dram__bytes.sum", "dram__cycles_elapsed.avg.per_second"),
                    ("l2", "derived__lts__lts2xbar_bytes.sum",
                     "lts__cycles_elapsed.avg.per_second"),
                    ("l1", "derived__l1tex__lsu_writeback_bytes_mem_lgds.sum",
                     "l1tex__cycles_elapsed.avg.per_second")):
                expected[f"{key}_bytes_per_s"] = v(f"{traffic}.per_second")
                expected[f"{key}_peak_bytes_per_s"] = v(f"{traffic}.peak_sustained") * v(clock)
                expected[f"{key}_intensity"] = work / v(f"{traffic}.per_second")
            out.append(expected)
    return out


@pytest.mark.parametrize("path", FULL, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_value_equals_ncus_formula_on_the_full_captures(path: Path) -> None:
    [kernel] = with_roofline_metrics(path).kernels
    [expected] = straight_from_ncu_report(path)
    got = roofline.roofline(kernel).as_json()
    assert set(got) == set(expected)
    for key, value in expected.items():
        assert got[key] == pytest.approx(value, rel=1e-12), key
    assert roofline.roofline(kernel).complete
    assert roofline.roofline(kernel).missing_text is None


def test_a_basic_capture_is_null_everywhere_and_says_which_set_has_it() -> None:
    report = with_roofline_metrics(BASIC_REPORT)
    assert [k.name for k in report.kernels] == ["scale", "add"]
    for kernel in report.kernels:
        r = roofline.roofline(kernel)
        assert set(r.as_json().values()) == {None}
        assert r.empty and not r.complete and r.missing_text == roofline.MISSING_TEXT
        assert all(r.ridge(level.key) is None for level in r.levels)
    assert "--set full" in roofline.MISSING_TEXT


def test_the_raw_page_export_gives_the_reports_roofline() -> None:
    """The same metrics printed by `--page raw --csv` (in Gbyte, Kbyte/cycle, Ghz): same roofline
    to the export's printed precision."""
    [exact] = with_roofline_metrics(PROFILES / "naive.ncu-rep").kernels
    [printed] = read_report(PROFILES / "naive.raw.csv").kernels
    a, b = roofline.roofline(exact).as_json(), roofline.roofline(printed).as_json()
    assert all(b[key] == pytest.approx(a[key], rel=1e-5) for key in a), (a, b)


def test_a_details_export_holds_only_dram_bandwidth_and_says_so() -> None:
    [kernel] = read_report(PROFILES / "naive.details.csv").kernels
    r = roofline.roofline(kernel)
    assert r.level("dram").bytes_per_s == pytest.approx(33.48e9)
    assert not r.empty and not r.complete and r.missing_text == roofline.PARTIAL_TEXT
    assert r.level("dram").intensity is None and r.achieved_fp32_flop_per_s is None


@pytest.mark.parametrize("pair", [FULL[:2], FULL[2:]], ids=["profiles", "corpus"])
def test_what_a_dram_only_roofline_hides_on_the_lessons_pair(pair: tuple[Path, Path]) -> None:
    naive, tiled = (roofline.roofline(with_roofline_metrics(p).kernels[0]) for p in pair)
    change = roofline.intensity_change(naive, tiled)
    assert change["dram"] == pytest.approx(1.0, abs=0.01)  # the same DRAM intensity
    assert 14.0 < change["l1"] < 17.0  # about fifteenfold at L1
    assert naive.level("dram").intensity > naive.ridge("dram")  # right of the DRAM ridge
    assert naive.level("l1").intensity < naive.ridge("l1")  # far left of the L1 ridge


def test_the_day_thirty_count_against_the_measured_dram_bytes() -> None:
    [naive] = with_roofline_metrics(PROFILES / "naive.ncu-rep").kernels
    [tiled] = with_roofline_metrics(PROFILES / "tiled.ncu-rep").kernels
    flaw = roofline.day_thirty(naive)
    assert flaw is not None and roofline.day_thirty(tiled) is None
    dim = 512
    assert (flaw.dim, flaw.flop) == (dim, 2 * dim**3)
    assert flaw.hand_bytes == 2 * dim**3 * 4 + dim**2 * 4 == 1_074_790_400
    assert flaw.measured_bytes == naive.metric("dram__bytes_read.sum") \
        + naive.metric("dram__bytes_write.sum") == 2_104_320
    # The counters' own FLOP (achieved rate x duration) are the source's 2 x dim^3.
    assert flaw.measured_flop == pytest.approx(2 * dim**3, rel=1e-6)
    assert flaw.hand_intensity == pytest.approx(0.25, rel=0.01)
    assert flaw.measured_intensity == pytest.approx(naive_dram_intensity(naive), rel=1e-3)
    assert flaw.times_measured == pytest.approx(510.7, rel=1e-3)


def naive_dram_intensity(kernel) -> float:
    value = roofline.roofline(kernel).level("dram").intensity
    assert value is not None
    return value


def test_each_kernel_of_a_many_kernel_report_has_its_captures_roofline(tmp_path: Path) -> None:
    report = with_roofline_metrics(build(tmp_path / "six.ncu-rep", 6))
    expected = [straight_from_ncu_report(p)[0] for p in FULL[2:]]
    for kernel in report.kernels:
        got = roofline.roofline(kernel).as_json()
        want = expected[kernel.index % 2]
        assert all(got[k] == pytest.approx(want[k], rel=1e-12) for k in want)
    basic = with_roofline_metrics(build(tmp_path / "basic.ncu-rep", 5, BASIC))
    assert all(roofline.roofline(k).empty for k in basic.kernels)


def test_the_l1_point_says_it_counts_no_shared_memory_loads() -> None:
    """The L1 point's bytes are global and local loads (mem_lgds): the tiled kernel's shared
    loads, which still carry its operands to the registers, are not in them."""
    from viewer.analysis import roofline_words

    pair = [roofline.roofline(read_report(ROOT / "profiles" / f"{name}.raw.csv").kernels[0])
            for name in ("naive", "tiled")]
    hidden = roofline_words.hidden_words(pair[0], pair[1], ("naive", "tiled"))
    assert hidden is not None and "L1 intensity rises 15.5-fold" in hidden
    assert "each byte L1 delivers to the SMs feeds" not in hidden
    assert "the L1 point counts only those" in hidden and "not shared-memory loads" in hidden
    assert "tiled executes 5,242,880 shared load instructions" in hidden
    assert "naive executes" not in hidden  # it executes none


def test_an_intensity_falling_to_zero_is_worded_not_divided() -> None:
    """A kernel with no FLOP at a level beside one with some: the change reads 'falls to 0'."""
    from viewer.analysis.roofline_words import change_words

    assert change_words(0.0) == "falls to 0"
    assert change_words(0.5) == "falls 2.0-fold"


def test_the_day_thirty_count_shown_is_the_naive_kernels_wherever_it_is_drawn() -> None:
    naive = with_roofline_metrics(PROFILES / "naive.ncu-rep").kernels[0]
    tiled = with_roofline_metrics(PROFILES / "tiled.ncu-rep").kernels[0]
    rooflines = [roofline.roofline(k) for k in (tiled, naive)]
    shown = roofline.shown_day_thirty([tiled, naive], rooflines)
    assert shown is not None and shown[1] is rooflines[1]
    assert shown[0] == roofline.day_thirty(naive)
    assert roofline.shown_day_thirty([tiled], rooflines[:1]) is None
    nothing = roofline.roofline(read_report(BASIC_REPORT).kernels[0])  # nothing to set it on
    assert nothing.empty
    assert roofline.shown_day_thirty([naive], [nothing]) is None


def test_the_views_sentences_name_the_files_once_and_the_kernel_in_compare_mode() -> None:
    from viewer.analysis import roofline_words

    naive, tiled = read_report(PROFILES / "naive.ncu-rep"), read_report(PROFILES / "tiled.ncu-rep")
    assert roofline_words.reading_words([naive, tiled, naive]) == (
        "Reading the roofline's metrics from naive.ncu-rep, tiled.ncu-rep...")
    text = roofline.MISSING_TEXT
    assert roofline_words.missing_words(text, "naive", compare=False) == (
        text[0].upper() + text[1:] + ".")
    assert roofline_words.missing_words(text, "naive", compare=True).startswith("naive: This ")
    assert roofline_words.ceilings_words("naive") == (
        "Ceilings: naive's peaks at its measured clocks.")
