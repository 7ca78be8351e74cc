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
