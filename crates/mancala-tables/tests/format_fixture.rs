//! A format fixture: small built tiers pinned by their size and the checksums their headers
//! hold (the payload's xxh3 at bytes 40..48, the header's at 120..128, which covers the
//! header's every field). A change to the file format, the index order or the solvers'
//! values cannot pass unnoticed: it changes these bytes. When the format changes on purpose,
//! the new figures go here with the new version number (`format::VERSION`).

use mancala_rules::{Options, Preset, Rules, Variant};
use mancala_tables::{build, format, tier_path, BuildOptions};

/// Tier, file length, payload checksum, header checksum.
type Pinned = (usize, u64, u64, u64);

const AWARI: &[Pinned] = &[
    (8, 75_632, 0x3f53_a2d9_8fc9_9491, 0x9938_01d8_e73c_eaf5),
    (9, 167_724, 0x1266_420e_b99f_4159, 0x238d_d31a_f803_6254),
];

const KALAH: &[Pinned] = &[(8, 73_136, 0xf70e_e921_a2f5_12cd, 0xf089_469f_5e46_6e3e)];

fn check(preset: Preset, pinned: &[Pinned]) {
    let rules = Rules::new(Variant::new(preset, Options::default()).unwrap());
    let dir = std::env::temp_dir().join(format!(
        "mancala-format-fixture-{}-{preset:?}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    let max = pinned.iter().map(|p| p.0).max().unwrap();
    let opts = BuildOptions {
        dir: dir.clone(),
        max_seeds: max,
        ..BuildOptions::default()
    };
    build(&rules, &opts, &()).unwrap();
    let key = rules.variant().key();
    for &(n, len, payload, header) in pinned {
        let bytes = std::fs::read(tier_path(&dir, &key, n)).unwrap();
        let u64_at = |o: usize| u64::from_le_bytes(bytes[o..o + 8].try_into().unwrap());
        let version = u32::from_le_bytes(bytes[8..12].try_into().unwrap());
        assert_eq!(version, format::VERSION, "{key} tier {n}");
        assert_eq!(
            (bytes.len() as u64, u64_at(40), u64_at(120)),
            (len, payload, header),
            "{key} tier {n}: the file format or the values changed"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn awari_tiers_are_the_pinned_bytes() {
    check(Preset::Awari, AWARI);
}

#[test]
fn kalah_tiers_are_the_pinned_bytes() {
    check(Preset::Kalah, KALAH);
}
