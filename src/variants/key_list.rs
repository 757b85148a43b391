//! A list of position keys that clones cheaply: a game's repetition
//! history is copied with every state a search clones, and a heap list cost
//! an allocation and a free per clone (the largest single cost of cloning
//! in most variants).

use serde::ser::SerializeSeq;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;

/// The newest keys, kept inline (a search records one a ply).
const INLINE: usize = 16;

/// Keys in order: the older ones in `base`, shared by clones (every state
/// of a search shares the game's history), then the first `len` of
/// `inline`. A push to a full `inline` moves its keys into a new `base`
/// (one allocation per 16 keys, none per clone). Serialized as a plain
/// sequence (as the `Vec` it replaced).
#[derive(Clone, Debug, Default)]
pub struct KeyList {
    base: Option<Arc<[u64]>>,
    len: usize,
    inline: [u64; INLINE],
}

impl KeyList {
    /// The keys, oldest first.
    #[inline(always)]
    pub fn iter(&self) -> impl Iterator<Item = &u64> {
        self.base
            .iter()
            .flat_map(|b| b.iter())
            .chain(&self.inline[..self.len])
    }
    #[inline(always)]
    pub fn len(&self) -> usize {
        self.base.as_ref().map_or(0, |b| b.len()) + self.len
    }
    #[inline(always)]
    pub fn last(&self) -> Option<u64> {
        match self.len {
            0 => self.base.as_ref().and_then(|b| b.last().copied()),
            n => Some(self.inline[n - 1]),
        }
    }
    #[inline(always)]
    pub fn push(&mut self, key: u64) {
        if self.len == INLINE {
            self.base = Some(self.iter().copied().collect());
            self.len = 0;
        }
        self.inline[self.len] = key;
        self.len += 1;
    }
    #[inline(always)]
    pub fn clear(&mut self) {
        self.base = None;
        self.len = 0;
    }
}

impl FromIterator<u64> for KeyList {
    fn from_iter<I: IntoIterator<Item = u64>>(iter: I) -> Self {
        let mut l = KeyList::default();
        for k in iter {
            l.push(k);
        }
        l
    }
}

impl Serialize for KeyList {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // With its length: postcard writes it first.
        let mut seq = s.serialize_seq(Some(self.len()))?;
        for k in self.iter() {
            seq.serialize_element(k)?;
        }
        seq.end()
    }
}

impl<'de> Deserialize<'de> for KeyList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Ok(Vec::<u64>::deserialize(d)?.into_iter().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::{KeyList, INLINE};

    /// Pushes and clears across the inline/heap boundary agree with a `Vec`,
    /// clones included; the serialized form is the `Vec`'s.
    #[test]
    fn behaves_as_a_vec() {
        let (mut l, mut v) = (KeyList::default(), Vec::new());
        for round in 0..4u64 {
            for k in 0..(round * 13 + 3) {
                l.push(k * 7 + round);
                v.push(k * 7 + round);
                let c = l.clone();
                for x in [&l, &c] {
                    assert!(x.iter().eq(v.iter()));
                    assert_eq!(x.len(), v.len());
                    assert_eq!(x.last(), v.last().copied());
                }
            }
            assert_eq!(
                serde_json::to_string(&l).unwrap(),
                serde_json::to_string(&v).unwrap()
            );
            let back: KeyList = serde_json::from_str(&serde_json::to_string(&v).unwrap()).unwrap();
            assert!(back.iter().eq(v.iter()));
            let bytes = postcard::to_allocvec(&l).unwrap();
            assert_eq!(bytes, postcard::to_allocvec(&v).unwrap());
            let back: KeyList = postcard::from_bytes(&bytes).unwrap();
            assert!(back.iter().eq(v.iter()));
            l.clear();
            v.clear();
            assert_eq!((l.len(), l.last()), (0, None));
        }
        const { assert!(3 * 13 + 3 > INLINE) };
    }

    /// A clone and its original share older keys but not what either
    /// pushes afterwards.
    #[test]
    fn clones_are_independent() {
        let mut a: KeyList = (0..40).collect();
        let mut b = a.clone();
        let (mut va, mut vb): (Vec<u64>, Vec<u64>) = ((0..40).collect(), (0..40).collect());
        for k in 0..30 {
            a.push(100 + k);
            va.push(100 + k);
            if k % 3 == 0 {
                b.push(200 + k);
                vb.push(200 + k);
            }
            assert!(a.iter().eq(va.iter()) && b.iter().eq(vb.iter()));
        }
        b.clear();
        assert!(a.iter().eq(va.iter()) && b.len() == 0);
    }
}
