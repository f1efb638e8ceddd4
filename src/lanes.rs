//! Two `f64` lanes operated on together. The hierarchy queries test a node's two children
//! (stored side by side, see [`crate::Model`]'s packed nodes) against one node of the other
//! model at once, one child per lane.
//!
//! On x86-64 the lanes are an SSE2 register, driven by intrinsics (SSE2 is part of the x86-64
//! baseline, so no runtime detection is needed). Elsewhere they are a plain pair, which the
//! compiler may vectorize or not.

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod imp {
    use std::arch::x86_64::*;

    #[derive(Clone, Copy, Debug)]
    #[repr(transparent)]
    pub struct F2(__m128d);

    // SAFETY (every `unsafe` block in this impl): the intrinsics need only SSE2, which this
    // module is compiled with (`cfg(target_feature = "sse2")`, part of the x86-64 baseline);
    // none of them touches memory except where noted.
    impl F2 {
        #[inline(always)]
        pub fn splat(x: f64) -> F2 {
            unsafe { F2(_mm_set1_pd(x)) }
        }
        #[cfg(test)]
        pub fn new(l0: f64, l1: f64) -> F2 {
            unsafe { F2(_mm_set_pd(l1, l0)) }
        }
        /// Both `f32` of `p`, widened (exactly). One `cvtps2pd` from memory.
        #[inline(always)]
        pub fn from_f32(p: &[f32; 2]) -> F2 {
            // SAFETY: reads the 8 bytes of `p` (`_mm_load_sd` has no alignment requirement).
            unsafe { F2(_mm_cvtps_pd(_mm_castpd_ps(_mm_load_sd(p.as_ptr() as *const f64)))) }
        }
        /// Lane `l` in both lanes.
        #[inline(always)]
        pub fn spread(self, l: usize) -> F2 {
            unsafe { F2(if l == 0 { _mm_unpacklo_pd(self.0, self.0) } else { _mm_unpackhi_pd(self.0, self.0) }) }
        }
        /// The two lanes.
        #[inline(always)]
        pub fn to_array(self) -> [f64; 2] {
            let mut out = [0.0; 2];
            // SAFETY: writes the 16 bytes of `out` (`_mm_storeu_pd` has no alignment requirement).
            unsafe { _mm_storeu_pd(out.as_mut_ptr(), self.0) };
            out
        }
        #[inline(always)]
        pub fn add(self, o: F2) -> F2 {
            unsafe { F2(_mm_add_pd(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn sub(self, o: F2) -> F2 {
            unsafe { F2(_mm_sub_pd(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn mul(self, o: F2) -> F2 {
            unsafe { F2(_mm_mul_pd(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn div(self, o: F2) -> F2 {
            unsafe { F2(_mm_div_pd(self.0, o.0)) }
        }
        #[inline(always)]
        pub fn sqrt(self) -> F2 {
            unsafe { F2(_mm_sqrt_pd(self.0)) }
        }
        #[inline(always)]
        pub fn abs(self) -> F2 {
            unsafe { F2(_mm_andnot_pd(_mm_set1_pd(-0.0), self.0)) }
        }
        /// Lane-wise maximum; where `o` is NaN the result is `o`'s lane, where only `self`
        /// is, `o`'s.
        #[inline(always)]
        pub fn max(self, o: F2) -> F2 {
            unsafe { F2(_mm_max_pd(self.0, o.0)) }
        }
        /// Lane-wise minimum (NaN as [`F2::max`]).
        #[inline(always)]
        pub fn min(self, o: F2) -> F2 {
            unsafe { F2(_mm_min_pd(self.0, o.0)) }
        }
        /// Bit `l` set when lane `l` of `self` exceeds that of `o` (NaN: not set).
        #[inline(always)]
        pub fn gt(self, o: F2) -> u32 {
            unsafe { _mm_movemask_pd(_mm_cmpgt_pd(self.0, o.0)) as u32 }
        }
        /// Lane-wise: `then` where `self` is at least `threshold`, else `otherwise` (NaN:
        /// `otherwise`).
        #[inline(always)]
        pub fn select_ge(self, threshold: F2, then: F2, otherwise: F2) -> F2 {
            unsafe {
                let mask = _mm_cmpge_pd(self.0, threshold.0);
                F2(_mm_or_pd(_mm_and_pd(mask, then.0), _mm_andnot_pd(mask, otherwise.0)))
            }
        }
    }
}

#[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
mod imp {
    #[derive(Clone, Copy, Debug)]
    pub struct F2([f64; 2]);

    impl F2 {
        #[inline(always)]
        pub fn splat(x: f64) -> F2 {
            F2([x, x])
        }
        #[cfg(test)]
        pub fn new(l0: f64, l1: f64) -> F2 {
            F2([l0, l1])
        }
        #[inline(always)]
        pub fn from_f32(p: &[f32; 2]) -> F2 {
            F2([p[0] as f64, p[1] as f64])
        }
        #[inline(always)]
        pub fn spread(self, l: usize) -> F2 {
            F2::splat(self.0[l & 1])
        }
        #[inline(always)]
        pub fn to_array(self) -> [f64; 2] {
            self.0
        }
        #[inline(always)]
        pub fn add(self, o: F2) -> F2 {
            F2([self.0[0] + o.0[0], self.0[1] + o.0[1]])
        }
        #[inline(always)]
        pub fn sub(self, o: F2) -> F2 {
            F2([self.0[0] - o.0[0], self.0[1] - o.0[1]])
        }
        #[inline(always)]
        pub fn mul(self, o: F2) -> F2 {
            F2([self.0[0] * o.0[0], self.0[1] * o.0[1]])
        }
        #[inline(always)]
        pub fn div(self, o: F2) -> F2 {
            F2([self.0[0] / o.0[0], self.0[1] / o.0[1]])
        }
        #[inline(always)]
        pub fn sqrt(self) -> F2 {
            F2([self.0[0].sqrt(), self.0[1].sqrt()])
        }
        #[inline(always)]
        pub fn abs(self) -> F2 {
            F2([self.0[0].abs(), self.0[1].abs()])
        }
        #[inline(always)]
        pub fn max(self, o: F2) -> F2 {
            let m = |x: f64, y: f64| if x > y { x } else { y };
            F2([m(self.0[0], o.0[0]), m(self.0[1], o.0[1])])
        }
        #[inline(always)]
        pub fn min(self, o: F2) -> F2 {
            let m = |x: f64, y: f64| if x < y { x } else { y };
            F2([m(self.0[0], o.0[0]), m(self.0[1], o.0[1])])
        }
        #[inline(always)]
        pub fn gt(self, o: F2) -> u32 {
            (self.0[0] > o.0[0]) as u32 | ((self.0[1] > o.0[1]) as u32) << 1
        }
        #[inline(always)]
        pub fn select_ge(self, threshold: F2, then: F2, otherwise: F2) -> F2 {
            let pick = |l: usize| if self.0[l] >= threshold.0[l] { then.0[l] } else { otherwise.0[l] };
            F2([pick(0), pick(1)])
        }
    }
}

pub(crate) use imp::F2;

impl Default for F2 {
    fn default() -> F2 {
        F2::splat(0.0)
    }
}

impl std::ops::Add for F2 {
    type Output = F2;
    #[inline(always)]
    fn add(self, o: F2) -> F2 {
        F2::add(self, o)
    }
}

impl std::ops::Sub for F2 {
    type Output = F2;
    #[inline(always)]
    fn sub(self, o: F2) -> F2 {
        F2::sub(self, o)
    }
}

impl std::ops::Mul for F2 {
    type Output = F2;
    #[inline(always)]
    fn mul(self, o: F2) -> F2 {
        F2::mul(self, o)
    }
}

impl std::ops::Div for F2 {
    type Output = F2;
    #[inline(always)]
    fn div(self, o: F2) -> F2 {
        F2::div(self, o)
    }
}

#[cfg(test)]
mod tests {
    use super::F2;

    #[test]
    fn lanes_compute_lane_wise() {
        let x = F2::new(1.5, -2.0);
        let y = F2::new(0.5, 4.0);
        assert_eq!((x + y).to_array(), [2.0, 2.0]);
        assert_eq!((x - y).to_array(), [1.0, -6.0]);
        assert_eq!((x * y).to_array(), [0.75, -8.0]);
        assert_eq!((x / y).to_array(), [3.0, -0.5]);
        assert_eq!(x.abs().to_array(), [1.5, 2.0]);
        assert_eq!(x.max(y).to_array(), [1.5, 4.0]);
        assert_eq!(x.min(y).to_array(), [0.5, -2.0]);
        assert_eq!(F2::new(4.0, 9.0).sqrt().to_array(), [2.0, 3.0]);
        assert_eq!(x.gt(y), 1);
        assert_eq!(x.spread(1).to_array(), [-2.0, -2.0]);
        assert_eq!(F2::from_f32(&[0.25, -1.0]).to_array(), [0.25, -1.0]);
        let pick = F2::new(1.0, f64::NAN).select_ge(F2::splat(1.0), x, y);
        assert_eq!(pick.to_array(), [1.5, 4.0]);
    }
}
