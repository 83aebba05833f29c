//! The executor's own arithmetic: the order groups run in, and how few
//! long groups are cut into pieces. Launches through the API are tested in
//! src/tests/launch.rs.

#[test]
fn groups_run_inner_dimension_fastest_and_each_once() {
    use super::group_id_of;
    use super::linear_group_id;
    let groups = [3, 4, 2];
    for inner in 0..3 {
        let ids: Vec<[usize; 3]> = (0..24).map(|g| group_id_of(g, groups, inner)).collect();
        // The inner dimension moves first.
        assert_eq!(ids[0], [0, 0, 0]);
        let mut second = [0; 3];
        second[inner] = 1;
        assert_eq!(ids[1], second, "inner {inner}");
        // Every group once, and OpenCL's linear ids are all of 0..24.
        let mut linear: Vec<usize> = ids.iter().map(|&id| linear_group_id(id, groups)).collect();
        linear.sort_unstable();
        assert_eq!(linear, (0..24).collect::<Vec<_>>());
    }
    // x fastest, as OpenCL numbers groups, when x is the inner dimension.
    assert_eq!(group_id_of(5, groups, 0), [2, 1, 0]);
    assert_eq!(linear_group_id([2, 1, 0], groups), 5);
    // y fastest, then x, then z.
    assert_eq!(group_id_of(5, groups, 1), [1, 1, 0]);
    assert_eq!(group_id_of(13, groups, 1), [0, 1, 1]);
}

#[test]
fn counting_groups_up_from_any_start_gives_group_id_of_each_next_group() {
    use super::{group_id_of, next_group_id, walk_order};
    for groups in [[3, 4, 2], [1, 5, 1], [2, 1, 3], [1, 1, 1]] {
        let count: usize = groups.iter().product();
        for inner in [0, 1, 2, 7] {
            for start in 0..count {
                let mut id = group_id_of(start, groups, inner);
                for g in start..count {
                    assert_eq!(
                        id,
                        group_id_of(g, groups, inner),
                        "{groups:?} inner {inner} from {start}"
                    );
                    next_group_id(&mut id, groups, walk_order(inner));
                }
            }
        }
    }
}

#[test]
fn few_long_groups_are_cut_into_pieces_along_their_outermost_loop() {
    use super::{pieces, Pieces};
    let cut = |dim, step, count| Some(Pieces { dim, step, count });
    // PolyBench's correlation on two threads: two groups of 256, four
    // pieces of 64 each, eight in all.
    assert_eq!(pieces([256, 1, 1], 2, 2, 0, 0), cut(0, 64, 4));
    // Enough groups to share: whole.
    assert_eq!(pieces([256, 1, 1], 8, 2, 0, 0), None);
    // A group that was short last time stays whole, a long one does not.
    assert_eq!(pieces([256, 1, 1], 1, 2, 0, 5_000), None);
    assert_eq!(pieces([256, 1, 1], 1, 2, 0, 50_000), cut(0, 32, 8));
    // One thread: nothing to share with.
    assert_eq!(pieces([256, 1, 1], 1, 1, 0, 0), None);
    // Too narrow for two pieces of whole vectors.
    assert_eq!(pieces([32, 1, 1], 1, 16, 0, 0), None);
    // A 32 x 8 group: cut into rows, the innermost loop (x) stays whole.
    assert_eq!(pieces([32, 8, 1], 1, 4, 0, 0), cut(1, 1, 8));
    // Innermost loop along y: the loops are z, x, y, and x is cut.
    assert_eq!(pieces([64, 4, 1], 1, 2, 1, 0), cut(0, 8, 8));
    // Uneven: 100 work-items in pieces of whole vectors, the last shorter.
    assert_eq!(pieces([100, 1, 1], 1, 2, 0, 0), cut(0, 32, 4));
}
