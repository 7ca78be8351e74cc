//! The adapter against misbehaving engines: scripted fakes that hang, crash,
//! answer garbage or never finish the handshake. Each failure must come back
//! as a typed error within its deadline, and the player must recover by
//! starting a fresh process.

use arena::adapter::{
    AdapterError, EnginePlayer, EngineSpec, ExternalEngine, GoLimit, PlayerFailure, Protocol, Ranks,
};
use std::time::{Duration, Instant};
use xiangqi::STARTPOS;

const FAKE: &str = r#"
mode=$1
while read -r line; do
  case "$line" in
    uci) [ "$mode" = mute ] && exec sleep 60; echo "id name fake-$mode"; echo "uciok";;
    isready) echo "readyok";;
    go*)
      case "$mode" in
        hang) exec sleep 60;;
        crash) exit 3;;
        garbage) printf 'info \377\376 nonsense\nbestmove zz99\n';;
        good) echo "info depth 3 score cp 12 pv h2e2"; echo "bestmove h2e2 ponder h9g7";;
      esac;;
    quit) exit 0;;
  esac
done
"#;

fn spec(mode: &str) -> EngineSpec {
    EngineSpec {
        name: String::new(),
        program: "bash".into(),
        args: vec!["-c".into(), FAKE.into(), "fake".into(), mode.into()],
        protocol: Protocol::Uci,
        ranks: Ranks::Auto,
        options: vec![("Hash".into(), "16".into())],
    }
}

const MOVETIME: GoLimit = GoLimit::MoveTime(Duration::from_millis(50));

#[tokio::test]
async fn a_good_engine_answers() {
    let mut e = ExternalEngine::start(&spec("good")).await.unwrap();
    assert_eq!(e.name, "fake-good");
    let m = e
        .go(STARTPOS, &[], MOVETIME, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!(m.mv.to_string(), "h2e2");
    assert_eq!(m.ponder.map(|p| p.to_string()), Some("h9g7".into()));
    assert_eq!((m.score, m.depth), (Some(12), Some(3)));
    e.quit().await;
}

#[tokio::test]
async fn hang_crash_and_garbage_are_reported_and_recovered() {
    for (mode, timeout) in [("hang", true), ("crash", false), ("garbage", false)] {
        let mut p = EnginePlayer::start(spec(mode)).await.unwrap();
        let t = Instant::now();
        let r = p
            .best_move(STARTPOS, &[], MOVETIME, Duration::from_millis(500))
            .await;
        assert!(t.elapsed() < Duration::from_secs(3), "{mode}: {:?}", t.elapsed());
        match r {
            Err(PlayerFailure::Timeout { .. }) => assert!(timeout, "{mode}"),
            Err(PlayerFailure::Failed { .. }) => assert!(!timeout, "{mode}"),
            Ok(m) => panic!("{mode}: answered {m:?}"),
        }
        // The next request runs on a fresh process (and fails the same way).
        let _ = p
            .best_move(STARTPOS, &[], MOVETIME, Duration::from_millis(300))
            .await;
        assert!(p.restarts >= 1, "{mode}");
        p.quit().await;
    }
}

#[tokio::test]
async fn missing_program_and_silent_handshake_fail_cleanly() {
    let mut s = spec("good");
    s.program = "/nonexistent/engine".into();
    assert!(matches!(
        ExternalEngine::start(&s).await,
        Err(AdapterError::Spawn { .. })
    ));
    let t = Instant::now();
    let r = ExternalEngine::start(&spec("mute")).await;
    assert!(matches!(r, Err(AdapterError::Timeout { .. })), "{:?}", r.err());
    assert!(t.elapsed() < Duration::from_secs(15));
}

/// A USI engine that announces `UCI_Variant` as Fairy-Stockfish does: it
/// must be greeted with `usi`, sent `usinewgame`, SFEN and USI moves as
/// they are (no rank shift, no `UCI_Variant xiangqi`), and its drop comes
/// back with its capital letter.
const FAKE_USI: &str = r#"
while read -r line; do
  case "$line" in
    usi) echo "id name fake-usi"; echo "option name UCI_Variant type combo default shogi var shogi var xiangqi"; echo "usiok";;
    "setoption name UCI_Variant value xiangqi") variant=xiangqi;;
    usinewgame) newgame=1;;
    isready) echo "readyok";;
    position*) pos=0; [ "$line" = "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 moves 7g7f 3c3d 8h2b+ 3a2b" ] && pos=1;;
    go*)
      if [ "$pos$newgame" = 11 ] && [ -z "$variant" ] && [ "$line" = "go btime 0 wtime 0 byoyomi 50" ]; then
        echo "info depth 5 score cp -40 pv B*4e"; echo "bestmove B*4e"
      else
        echo "bestmove resign"
      fi;;
    quit) exit 0;;
  esac
done
"#;

#[tokio::test]
async fn a_usi_engine_gets_sfen_and_usi_moves_and_may_resign() {
    let spec = EngineSpec {
        name: String::new(),
        program: "bash".into(),
        args: vec!["-c".into(), FAKE_USI.into()],
        protocol: Protocol::Usi,
        ranks: Ranks::Auto,
        options: Vec::new(),
    };
    let mut p = EnginePlayer::start(spec).await.unwrap();
    assert_eq!(p.name(), "fake-usi");
    p.new_game().await.unwrap();
    let moves: Vec<String> = ["7g7f", "3c3d", "8h2b+", "3a2b"].map(String::from).to_vec();
    let sfen = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";
    let r = p
        .best_move_text(sfen, &moves, &[], MOVETIME, Duration::from_secs(5))
        .await
        .unwrap();
    assert_eq!((r.mv.as_str(), r.score), ("B*4e", Some(-40)));
    // Anything else makes it resign: no move, an error, not a move "resign".
    let e = p
        .best_move_text(sfen, &[], &[], MOVETIME, Duration::from_secs(5))
        .await
        .unwrap_err();
    assert!(e.to_string().contains("resign"), "{e}");
    p.quit().await;
}
