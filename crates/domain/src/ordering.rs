//! The seven-step ordering game as pure logic: a seeded shuffle per attempt, picks in order, a
//! wrong pick that costs nothing but names the step still missing, and the solved state.

/// What a pick did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pick {
    /// The card was the next step; `placed` steps are in place now.
    Correct {
        /// The step (index in the correct order).
        step: usize,
        /// How many steps are placed after this pick.
        placed: usize,
    },
    /// The card was not the next step; `missing` is the step that must come next.
    Wrong {
        /// The step picked.
        picked: usize,
        /// The step still missing next (its hint is shown).
        missing: usize,
    },
    /// The card is already in place, or the number names no card, or the game is solved.
    Ignored,
}

/// One attempt of the ordering game.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OrderingGame {
    /// Card position -> step index (the shuffled deck).
    deck: Vec<usize>,
    /// How many steps are in place (steps `0..placed` are).
    placed: usize,
    /// Wrong picks in this attempt.
    mistakes: u32,
    /// Whether any pick happened in this attempt (the attempt counts from the first pick).
    started: bool,
}

impl OrderingGame {
    /// A new attempt over `steps` cards, shuffled by `seed`. The deal is never already solved
    /// (with two or more cards): a game that starts solved teaches nothing.
    pub fn new(steps: usize, seed: u64) -> OrderingGame {
        let mut deck: Vec<usize> = (0..steps).collect();
        let mut state = seed ^ 0x9E37_79B9_7F4A_7C15;
        for i in (1..steps).rev() {
            let j = (splitmix(&mut state) % (i as u64 + 1)) as usize;
            deck.swap(i, j);
        }
        if steps > 1 && deck.iter().enumerate().all(|(i, s)| i == *s) {
            deck.rotate_left(1);
        }
        OrderingGame {
            deck,
            placed: 0,
            mistakes: 0,
            started: false,
        }
    }

    /// Picks the card at `position` (0-based, in deck order).
    pub fn pick(&mut self, position: usize) -> Pick {
        let Some(&step) = self.deck.get(position) else {
            return Pick::Ignored;
        };
        if self.is_solved() || step < self.placed {
            return Pick::Ignored;
        }
        self.started = true;
        if step == self.placed {
            self.placed += 1;
            Pick::Correct {
                step,
                placed: self.placed,
            }
        } else {
            self.mistakes += 1;
            Pick::Wrong {
                picked: step,
                missing: self.placed,
            }
        }
    }

    /// The steps in deck order (card position -> step index).
    pub fn deck(&self) -> &[usize] {
        &self.deck
    }

    /// How many cards there are.
    pub fn len(&self) -> usize {
        self.deck.len()
    }

    /// True for a game without cards.
    pub fn is_empty(&self) -> bool {
        self.deck.is_empty()
    }

    /// How many steps are in place.
    pub fn placed(&self) -> usize {
        self.placed
    }

    /// The place (0-based) of the card at `position`, when it is already placed.
    pub fn place_of(&self, position: usize) -> Option<usize> {
        self.deck
            .get(position)
            .copied()
            .filter(|s| *s < self.placed)
    }

    /// The step that must come next, while unsolved.
    pub fn next_missing(&self) -> Option<usize> {
        (!self.is_solved()).then_some(self.placed)
    }

    /// True when every step is in place.
    pub fn is_solved(&self) -> bool {
        self.placed == self.deck.len()
    }

    /// Wrong picks in this attempt.
    pub fn mistakes(&self) -> u32 {
        self.mistakes
    }

    /// Whether a pick happened in this attempt.
    pub fn started(&self) -> bool {
        self.started
    }
}

/// `SplitMix64`: a tiny, stable generator, so a seed deals the same cards on every platform and
/// in every version (snapshots rely on it).
fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn position_of(game: &OrderingGame, step: usize) -> usize {
        game.deck()
            .iter()
            .position(|s| *s == step)
            .expect("every step is dealt")
    }

    #[test]
    fn same_seed_same_deal_other_seed_other_deal_never_solved() {
        assert_eq!(OrderingGame::new(7, 1), OrderingGame::new(7, 1));
        let deals: std::collections::BTreeSet<Vec<usize>> = (0..20)
            .map(|seed| OrderingGame::new(7, seed).deck().to_vec())
            .collect();
        assert!(deals.len() > 15, "seeds must vary the deal");
        for seed in 0..500 {
            let game = OrderingGame::new(7, seed);
            let mut sorted = game.deck().to_vec();
            sorted.sort_unstable();
            assert_eq!(sorted, (0..7).collect::<Vec<_>>());
            assert_ne!(game.deck(), &[0, 1, 2, 3, 4, 5, 6][..], "seed {seed}");
        }
    }

    #[test]
    fn a_wrong_pick_costs_nothing_and_names_the_missing_step() {
        let mut game = OrderingGame::new(7, 3);
        assert!(!game.started());
        let wrong = position_of(&game, 4);
        assert_eq!(
            game.pick(wrong),
            Pick::Wrong {
                picked: 4,
                missing: 0
            }
        );
        assert_eq!(game.placed(), 0);
        assert_eq!(game.mistakes(), 1);
        assert!(game.started());
        assert_eq!(
            game.pick(position_of(&game, 0)),
            Pick::Correct { step: 0, placed: 1 }
        );
        assert_eq!(game.pick(position_of(&game, 0)), Pick::Ignored, "placed");
        assert_eq!(game.pick(99), Pick::Ignored);
        assert_eq!(game.next_missing(), Some(1));
        assert_eq!(game.place_of(position_of(&game, 0)), Some(0));
        assert_eq!(game.place_of(position_of(&game, 1)), None);
    }

    #[test]
    fn picking_in_order_solves() {
        let mut game = OrderingGame::new(7, 42);
        for step in 0..7 {
            assert!(!game.is_solved());
            let pick = game.pick(position_of(&game, step));
            assert_eq!(
                pick,
                Pick::Correct {
                    step,
                    placed: step + 1
                }
            );
        }
        assert!(game.is_solved());
        assert_eq!(game.next_missing(), None);
        assert_eq!(game.pick(0), Pick::Ignored);
        assert_eq!(game.mistakes(), 0);
    }
}
