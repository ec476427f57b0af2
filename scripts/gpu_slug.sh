# Sourced by gpu_session.sh and phases.sh: a GPU's name as the run folders
# carry it, the way `flashstudy run` names its own (slugify in
# harness/rundir.c): "NVIDIA H200" -> nvidia-h200, "gpu" for no name.
gpu_slug() {
    local s
    s=$(echo "$1" | tr 'A-Z' 'a-z' | sed -e 's/[^a-z0-9]\{1,\}/-/g' -e 's/^-//' -e 's/-$//')
    echo "${s:-gpu}"
}
