//! The traffic log's segments as kept in memory: for each, in the order they were written, which entry
//! numbers it holds and how much. Entries are numbered when a request arrives and stored when its answer
//! is complete, so a segment's numbers can interleave with its neighbours'; the shelf says which segments
//! can hold a number, and when a search in number order may stop.

use super::segment::SegmentInfo;
use std::collections::VecDeque;

#[derive(Debug, Clone, Copy)]
pub struct Shelved {
    pub info: SegmentInfo,
    /// The highest entry number in this segment and every older one: a search for the newest entries
    /// may stop at a segment once it has found enough entries above this.
    pub max_so_far: u64,
}

/// The segments, oldest first, and what they hold in all.
#[derive(Debug, Default)]
pub struct Shelf {
    list: VecDeque<Shelved>,
    entries: u64,
    weight: u64,
    next_seq: u64,
}

impl Shelf {
    /// The shelf of the stored segments `infos` (in any order).
    pub fn new(mut infos: Vec<SegmentInfo>) -> Shelf {
        infos.sort_by_key(|i| i.seq);
        let mut shelf = Shelf::default();
        for info in infos {
            shelf.push(info);
        }
        shelf
    }

    /// The number the next segment takes.
    pub fn next_seq(&mut self) -> u64 {
        self.next_seq += 1;
        self.next_seq
    }

    /// A segment just written (numbered above every other).
    pub fn push(&mut self, info: SegmentInfo) {
        let before = self.list.back().map_or(0, |s| s.max_so_far);
        self.list.push_back(Shelved {
            info,
            max_so_far: before.max(info.max),
        });
        self.entries += info.count;
        self.weight += info.weight;
        self.next_seq = self.next_seq.max(info.seq);
    }

    /// The oldest segment.
    pub fn oldest(&self) -> Option<SegmentInfo> {
        self.list.front().map(|s| s.info)
    }

    /// The oldest segment was pruned whole (`None`) or in part (what is left of it). The bounds of the
    /// newer ones stay as they are: at worst a search reads one segment more.
    pub fn replace_oldest(&mut self, rest: Option<SegmentInfo>) {
        let Some(oldest) = self.list.pop_front() else {
            return;
        };
        self.entries -= oldest.info.count;
        self.weight -= oldest.info.weight;
        if let Some(info) = rest {
            self.list.push_front(Shelved {
                info,
                max_so_far: oldest.max_so_far,
            });
            self.entries += info.count;
            self.weight += info.weight;
        }
    }

    /// Every segment left the log at once (it was cleared); the sequence numbers go on.
    pub fn clear(&mut self) {
        self.list.clear();
        self.entries = 0;
        self.weight = 0;
    }

    /// How many entries, and how many bytes (by weight), the log holds.
    pub fn totals(&self) -> (u64, u64) {
        (self.entries, self.weight)
    }

    /// The highest entry number stored (0 when none).
    pub fn last_id(&self) -> u64 {
        self.list.back().map_or(0, |s| s.max_so_far)
    }

    /// The segments, oldest first.
    pub fn segments(&self) -> impl DoubleEndedIterator<Item = &Shelved> {
        self.list.iter()
    }

    /// The segments that can hold entry `id`.
    pub fn holding(&self, id: u64) -> impl Iterator<Item = SegmentInfo> + '_ {
        // Every segment before the first whose running maximum reaches `id` holds only lower numbers.
        let start = self.list.partition_point(|s| s.max_so_far < id);
        self.list
            .range(start..)
            .map(|s| s.info)
            .filter(move |info| info.min <= id && id <= info.max)
    }

    /// The segments that can hold entries numbered above `after`, oldest first, each with the lowest
    /// number in it and every newer segment: a search for the oldest entries may stop at a segment once
    /// it has found enough entries below that.
    pub fn after(&self, after: u64) -> Vec<(SegmentInfo, u64)> {
        let start = self.list.partition_point(|s| s.max_so_far <= after);
        let mut found: Vec<(SegmentInfo, u64)> = self
            .list
            .range(start..)
            .map(|s| (s.info, s.info.min))
            .collect();
        let mut min_from_here = u64::MAX;
        for (info, min) in found.iter_mut().rev() {
            min_from_here = min_from_here.min(info.min);
            *min = min_from_here;
        }
        found.retain(|(info, _)| info.max > after);
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(seq: u64, min: u64, max: u64) -> SegmentInfo {
        SegmentInfo {
            seq,
            min,
            max,
            count: max - min + 1,
            weight: 10 * (max - min + 1),
            chunk: 1,
            offset: 0,
            len: 0,
        }
    }

    #[test]
    fn the_shelf_finds_the_segments_that_can_hold_a_number_even_when_they_interleave() {
        // Segment 2 holds a late entry (3) numbered below segment 1's highest.
        let shelf = Shelf::new(vec![info(2, 3, 9), info(1, 1, 5), info(3, 10, 12)]);
        assert_eq!(shelf.totals(), (5 + 7 + 3, 150));
        assert_eq!(shelf.last_id(), 12);
        let holding = |id| shelf.holding(id).map(|i| i.seq).collect::<Vec<_>>();
        assert_eq!(holding(4), [1, 2]);
        assert_eq!(holding(1), [1]);
        assert_eq!(holding(11), [3]);
        assert!(holding(13).is_empty());
        let after: Vec<(u64, u64)> = shelf.after(5).iter().map(|(i, m)| (i.seq, *m)).collect();
        assert_eq!(after, [(2, 3), (3, 10)]);
        assert!(shelf.after(12).is_empty());
    }

    #[test]
    fn pruning_the_oldest_segment_keeps_the_totals() {
        let mut shelf = Shelf::new(vec![info(1, 1, 4), info(2, 5, 8)]);
        assert_eq!(shelf.next_seq(), 3);
        shelf.replace_oldest(Some(info(1, 3, 4)));
        assert_eq!(shelf.totals(), (6, 60));
        assert_eq!(shelf.oldest().map(|i| i.min), Some(3));
        shelf.replace_oldest(None);
        assert_eq!(shelf.totals(), (4, 40));
        assert_eq!(shelf.oldest().map(|i| i.seq), Some(2));
    }
}
