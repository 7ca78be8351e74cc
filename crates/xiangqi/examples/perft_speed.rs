fn main() {
    let depth: u32 = std::env::args().nth(1).map_or(5, |d| d.parse().unwrap());
    let fen = std::env::args().nth(2).unwrap_or_else(|| "startpos".into());
    let mut pos = xiangqi::Position::from_fen(&fen).unwrap();
    let t = std::time::Instant::now();
    let n = xiangqi::perft::perft(&mut pos, depth);
    let s = t.elapsed().as_secs_f64();
    println!("{n} nodes in {s:.3}s = {:.1} Mnps", n as f64 / s / 1e6);
}
