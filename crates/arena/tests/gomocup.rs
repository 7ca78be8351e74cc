//! The Gomocup-protocol adapter and the gomoku match runner against scripted
//! fake engines (bash), so that no external engine is needed: the commands
//! an engine is sent (`START`, `INFO`, `RESTART`, `BOARD` … `DONE`, `TURN`,
//! `END`), chatter it may write, and the faults it may commit — a hang, a
//! crash, garbage, a stone on a taken point — each lose the game for the
//! engine that committed them, and the player recovers with a fresh process.

use arena::adapter::{EngineSpec, PlayerFailure, Protocol, Ranks};
use arena::{run_gomocup_match, GameInfo, GomocupConfig, GomocupPlayer, PbrainEngine};
use renju::{Color, Point, Rules};
use std::time::Duration;

/// `$1` the mode, `$2` a row (y) the engine fills from the left, `$3` a
/// file every line read is appended to. It keeps count of its own stones
/// (from `BOARD` too) and plays the next point of its row.
const FAKE: &str = r#"
mode=$1; row=$2; log=$3; n=0; inboard=0
while read -r line; do
  [ -n "$log" ] && echo "$line" >> "$log"
  if [ $inboard = 1 ]; then
    case "$line" in
      DONE) inboard=0; echo "MESSAGE thinking"; echo "$n,$row"; n=$((n+1));;
      *,1) n=$((n+1));;
    esac
    continue
  fi
  case "$line" in
    START*) echo "OK";;
    ABOUT) echo "name=\"fake\", version=\"$mode\", author=\"t\"";;
    RESTART) n=0; echo "OK";;
    INFO*) ;;
    BOARD) n=0; inboard=1;;
    BEGIN|TURN*)
      case "$mode" in
        hang) exec sleep 60;;
        crash) exit 3;;
        garbage) echo "ERROR I am confused";;
        taken) echo "7,7";;
        *) echo "DEBUG $line"; echo "$n,$row"; n=$((n+1));;
      esac;;
    END) exit 0;;
    *) echo "UNKNOWN $line";;
  esac
done
"#;

fn spec(mode: &str, row: u8, log: &str) -> EngineSpec {
    EngineSpec {
        name: String::new(),
        program: "bash".into(),
        args: vec![
            "-c".into(),
            FAKE.into(),
            "fake".into(),
            mode.into(),
            row.to_string(),
            log.into(),
        ],
        protocol: Protocol::Uci,
        ranks: Ranks::Auto,
        options: vec![("max_memory".into(), "0".into())],
    }
}

fn points(text: &str) -> Vec<Point> {
    text.split_whitespace().map(|s| s.parse().unwrap()).collect()
}

fn config(black_mode: &str, white_mode: &str, log: &str, games: u32) -> GomocupConfig {
    GomocupConfig {
        engines: [spec(black_mode, 7, log), spec(white_mode, 0, "")],
        games,
        rules: Rules::FREESTYLE,
        move_time: Duration::from_millis(300),
        margin: Duration::from_millis(200),
        // Black h8 and white h9: the fakes' rows (8 and 15) are free but for
        // h8, beyond the five black fills (b8 … f8, counting h8 as its first).
        openings: vec![points("h8 h9")],
        concurrency: 1,
        sprt: None,
    }
}

#[tokio::test]
async fn the_engine_is_told_the_game_then_only_the_last_move() {
    let dir = std::env::temp_dir().join(format!("qiju-gomocup-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let log = dir.join("log.txt");
    let _ = std::fs::remove_file(&log);
    let report = run_gomocup_match(config("good", "good", log.to_str().unwrap(), 1), |_, _, _| {})
        .await
        .unwrap();
    assert_eq!(report.names, ["fake good", "fake good"]);
    let g = &report.games[0];
    // The first engine is black; counting h8 from the BOARD as its own, it
    // fills b8 … f8 and wins with five (white, told h9 is its own, b15 …).
    assert!(g.first_is_black);
    assert_eq!((g.winner, g.reason.as_str()), (Some(Color::Black), "five"));
    assert_eq!(g.book, 2);
    assert_eq!(
        g.stones[2..].iter().map(ToString::to_string).collect::<Vec<_>>(),
        ["b8", "b15", "c8", "c15", "d8", "d15", "e8", "e15", "f8"]
    );
    assert_eq!(report.tally.wins, 1);
    assert_eq!(g.thinking[0].1, 5);
    assert_eq!(g.thinking[1].1, 4);
    let text = std::fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "START 15",
            "ABOUT",
            "RESTART",
            "INFO timeout_turn 300",
            "INFO timeout_match 0",
            "INFO rule 0",
            "INFO max_memory 0",
            // The opening, black to move: h8 is its own, h9 the other's.
            "BOARD",
            "7,7,1",
            "7,6,2",
            "DONE",
            "TURN 1,0",
            "TURN 2,0",
            "TURN 3,0",
            "TURN 4,0",
            "END",
        ]
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[tokio::test]
async fn colours_alternate_and_the_score_is_the_first_engines() {
    let report = run_gomocup_match(config("good", "good", "", 4), |_, _, _| {})
        .await
        .unwrap();
    // Whoever is black fills its row first and wins: one win each way.
    assert_eq!(report.games.len(), 4);
    assert_eq!(
        (report.tally.wins, report.tally.losses, report.tally.draws),
        (2, 2, 0)
    );
    let mut firsts: Vec<bool> = report.games.iter().map(|g| g.first_is_black).collect();
    firsts.sort_unstable();
    assert_eq!(firsts, [false, false, true, true]);
    assert!(report.games.iter().all(|g| g.winner == Some(Color::Black)));
}

#[tokio::test]
async fn faults_lose_the_game_for_the_engine_that_commits_them() {
    for (mode, why) in [
        ("hang", "time forfeit"),
        ("crash", "failed"),
        ("garbage", "ERROR I am confused"),
        ("taken", "illegal move h8"),
    ] {
        let report = run_gomocup_match(config(mode, "good", "", 2), |_, _, _| {})
            .await
            .unwrap();
        for g in &report.games {
            let faulty = if g.first_is_black {
                Color::Black
            } else {
                Color::White
            };
            assert_eq!(g.winner, Some(faulty.other()), "{mode}: {g:?}");
            assert!(g.reason.contains(why), "{mode}: {}", g.reason);
        }
        assert_eq!(report.tally.losses, 2, "{mode}");
    }
}

#[tokio::test]
async fn a_player_recovers_from_a_crash_with_the_whole_board() {
    let mut p = GomocupPlayer::start(spec("crash", 7, "")).await.unwrap();
    let info = GameInfo {
        rule: 0,
        turn_time: Duration::from_millis(200),
        match_time: Duration::ZERO,
    };
    p.new_game(info).await.unwrap();
    let e = p.best_move(&[], Duration::from_secs(2)).await.unwrap_err();
    assert!(matches!(e, PlayerFailure::Failed { .. }), "{e}");
    // The next request starts a fresh process; BOARD does not crash it.
    let (pt, _) = p.best_move(&points("h8"), Duration::from_secs(2)).await.unwrap();
    assert_eq!(pt.to_string(), "a8");
    assert_eq!(p.restarts, 1);
    p.quit().await;
}

#[tokio::test]
async fn a_missing_program_or_a_refused_board_fails_cleanly() {
    let mut s = spec("good", 7, "");
    s.program = "/nonexistent/pbrain".into();
    assert!(PbrainEngine::start(&s).await.is_err());
    let refuse = EngineSpec {
        args: vec!["-c".into(), "read l; echo 'ERROR only 20x20'; sleep 5".into()],
        ..spec("good", 7, "")
    };
    let started = std::time::Instant::now();
    let e = PbrainEngine::start(&refuse).await.err().expect("refused");
    assert!(e.to_string().contains("only 20x20"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(3));
}
