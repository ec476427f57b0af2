/* Changes between steps; see change.h. */
#include "change.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

double fs_change(double before, double now, int is_pct)
{
    if (isnan(before) || isnan(now))
        return NAN;
    if (is_pct)
        return now - before;
    return before == 0 ? NAN : 100.0 * (now / before - 1);
}

int fs_is_pct_column(const char *column)
{
    size_t n = strlen(column);
    return n >= 4 && !strcmp(column + n - 4, "_pct");
}

const char *const fs_verdict_names[4] = {"not measured", "met", "missed", "beat"};

fs_verdict fs_expect_verdict(double before, double now, const fs_expectation *e, int is_pct, char *buf,
                             size_t len)
{
    double lo = e->lo < e->hi ? e->lo : e->hi, hi = e->lo < e->hi ? e->hi : e->lo;
    const char *unit = is_pct ? " points" : "%";
    int n = snprintf(buf, len, "expected %s %+g to %+g%s; ", e->column, lo, hi, unit);
    size_t used = n < 0 ? 0 : (size_t)n < len ? (size_t)n : len;
    double ch = fs_change(before, now, is_pct);
    fs_verdict v;
    if (isnan(before) || isnan(now)) {
        v = FS_NOT_MEASURED;
        snprintf(buf + used, len - used, "not measured");
        return v;
    }
    if (isnan(ch)) {
        snprintf(buf + used, len - used, "measured %g to %g: no change in percent from zero: not measured", before,
                 now);
        return FS_NOT_MEASURED;
    }
    /* Judged as printed, to a tenth: -0.99% reads -1.0%, which a range
     * ending at -1% holds. */
    ch = round(ch * 10) / 10;
    if (ch >= lo && ch <= hi)
        v = FS_MET;
    else if ((hi <= 0 && ch < lo) || (lo >= 0 && ch > hi))
        v = FS_BEAT;
    else
        v = FS_MISSED;
    snprintf(buf + used, len - used, "measured %+.1f%s: %s", ch, unit, fs_verdict_names[v]);
    return v;
}

int fs_seed_find(const fs_table *seed, int variant, const char *metric, const char *kind)
{
    char v[8];
    snprintf(v, sizeof v, "%02d", variant);
    for (int i = 0; i < seed->nrows; i++)
        if (!strcmp(fs_table_get(seed, i, "variant"), v) && !strcmp(fs_table_get(seed, i, "metric"), metric) &&
            !strcmp(fs_table_get(seed, i, "kind"), kind))
            return i;
    return -1;
}

/* Half a unit in the last digit the document printed: "164.3" -> 0.05. */
static double half_ulp(const char *printed)
{
    const char *dot = strchr(printed, '.');
    double u = 0.5;
    for (const char *s = dot ? dot + 1 : ""; *s >= '0' && *s <= '9'; s++)
        u /= 10;
    return u;
}

void fs_seed_change_at(const fs_table *seed, int variant, const char *metric, fs_seed_change *c)
{
    c->row = fs_seed_find(seed, variant, metric, "change_pct");
    c->written = c->row < 0 ? NAN : fs_table_num(seed, c->row, "value");
    c->change = c->written;
    c->slip = 0;
    int now = fs_seed_find(seed, variant, metric, "abs"), before = -1;
    c->pct = now >= 0 && !strcmp(fs_table_get(seed, now, "unit"), "pct");
    for (int p = variant - 1; p >= 1 && now >= 0 && before < 0; p--)
        before = fs_seed_find(seed, p, metric, "abs");
    if (before < 0)
        return;
    double a = fs_table_num(seed, before, "value"), b = fs_table_num(seed, now, "value");
    double ua = half_ulp(fs_table_get(seed, before, "value")), ub = half_ulp(fs_table_get(seed, now, "value"));
    c->change = fs_change(a, b, c->pct);
    if (isnan(c->written) || isnan(c->change))
        return;
    /* The changes that figures rounded as printed allow, widened by the
     * rounding of the written change itself. */
    double lo = fs_change(a + ua, b - ub, c->pct), hi = fs_change(a - ua, b + ub, c->pct),
           uw = half_ulp(fs_table_get(seed, c->row, "value"));
    c->slip = c->written < lo - uw || c->written > hi + uw;
}
