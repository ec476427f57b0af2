import sys
for f in ['variants/12_wgmma_pv.cu','variants/13_warpgroups.cu','variants/14_pingpong.cu']:
    s=open(f).read()
    i=s.index('#pragma unroll\n    for (int r = 0; r < 2; r++) {\n        float mx = -INFINITY;')
    j=s.index('    fs_wgmma_fence();\n#pragma unroll\n    for (int kk = 0; kk < BN / 16; kk++)\n        fs_wgmma_rs<D>')
    new='''    float m_scaled[2], sum[2] = {0.f, 0.f};
#pragma unroll
    for (int r = 0; r < 2; r++) {
        float mx = -INFINITY;
#pragma unroll
        for (int j = 0; j < BN / 8; j++)
            mx = fmaxf(mx, fmaxf(s[j][2 * r], s[j][2 * r + 1]));
        const float m_new = fmaxf(m[r], fs_quad_max(mx));
        const float alpha = exp2f((m[r] - m_new) * scale_log2);
        m_scaled[r] = m_new * scale_log2;
        l[r] *= alpha;
        m[r] = m_new;
#pragma unroll
        for (int n = 0; n < D / 8; n++) {
            acc[n][2 * r] *= alpha;
            acc[n][2 * r + 1] *= alpha;
        }
    }
    uint32_t pa[BN / 16][4];
#pragma unroll
    for (int kk = 0; kk < BN / 16; kk++) {
#pragma unroll
        for (int h = 0; h < 2; h++)
#pragma unroll
            for (int e = 0; e < 4; e++) {
                float &x = s[2 * kk + h][e];
                x = exp2f(fmaf(x, scale_log2, -m_scaled[e / 2]));
                sum[e / 2] += x;
            }
        pa[kk][0] = fs_pack_half2(s[2 * kk][0], s[2 * kk][1]);
        pa[kk][1] = fs_pack_half2(s[2 * kk][2], s[2 * kk][3]);
        pa[kk][2] = fs_pack_half2(s[2 * kk + 1][0], s[2 * kk + 1][1]);
        pa[kk][3] = fs_pack_half2(s[2 * kk + 1][2], s[2 * kk + 1][3]);
    }
#pragma unroll
    for (int r = 0; r < 2; r++)
        l[r] += fs_quad_sum(sum[r]);
'''
    s=s[:i]+new+s[j:]
    open(f,'w').write(s)
