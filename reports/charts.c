/* The table of charts: what `flashstudy plots` draws, in order, each by
 * its writer (chart_bars.c, chart_lines.c) from its template. */
#include "charts.h"

#include "chart_bars.h"
#include "chart_lines.h"

const fsr_chart fsr_charts[] = {
    {"time", "time per variant, peers as reference lines", fsr_chart_time, NULL},
    {"waterfall", "time change step by step", fsr_chart_waterfall, NULL},
    {"bytes", "DRAM and L2 bytes", fsr_chart_bytes, NULL},
    {"l2hit", "L2 hit rate", fsr_chart_l2hit, NULL},
    {"inst", "instructions executed", fsr_chart_inst, NULL},
    {"occupancy", "theoretical and achieved occupancy", fsr_chart_occupancy, NULL},
    {"roofline", "roofline", fsr_chart_roofline, NULL},
    {"accuracy", "speed against error, in every element type and input distribution", fsr_chart_accuracy, NULL},
    {"seed", "our time change per step against document 000's", fsr_chart_seed, NULL},
    {"sweep_time", "time against N", fsr_chart_sweep_time, NULL},
    {"sweep_mem", "peak memory against N", fsr_chart_sweep_mem, NULL},
    {"sweep_peers", "the fastest step and the peers against N", fsr_chart_sweep_peers, NULL},
    {"timeline", "one launch of a variant over time", fsr_chart_timeline, fsr_chart_timeline_rows},
    {"timeline_step", "one launch of a step and of its predecessor over time", fsr_chart_timeline_step,
     fsr_chart_timeline_step_rows},
};
const int fsr_chart_count = (int)(sizeof fsr_charts / sizeof fsr_charts[0]);
