//! The wire protocol of both sockets, as docs/websocket.md describes it:
//! one message of every kind reads back as written with its `t`, and the
//! document's tables list exactly the messages of `play::protocol::ServerMsg`
//! (the game socket) and `lobby::protocol::LobbyMsg` (the lobby socket).

use game::Side;
use lobby::protocol::{LobbyLine, LobbyMsg};
use lobby::{ChallengeView, ColorChoice, NoticeKind, SeekView};
use play::protocol::{
    Away, ChatRoom, ClockView, GameView, PlayerView, RatingChange, ServerMsg, SideClockView,
};
use std::collections::BTreeMap;

fn clocks() -> ClockView {
    ClockView {
        first: Some(SideClockView {
            stage: 1,
            moves_to_control: None,
            periods_left: Some(3),
            period_ms: Some(30_000),
            period_left_ms: None,
        }),
        ..ClockView::main(1, 2, true)
    }
}

/// One message of every kind (the match in `kind` makes a new variant a
/// compile error until it is added here too).
fn one_of_each() -> Vec<ServerMsg> {
    let game = GameView {
        id: "g".into(),
        variant: "chess/standard".into(),
        rated: false,
        time_control: "5+3".into(),
        initial_ms: 300_000,
        increment_ms: 3000,
        sides: ["white".into(), "black".into()],
        first: PlayerView {
            id: Some("u".into()),
            name: "a".into(),
            rating: Some(1500.0),
            computer: None,
        },
        second: PlayerView {
            id: None,
            name: "Computer".into(),
            rating: None,
            computer: Some("level:1".into()),
        },
        initial_fen: "startpos".into(),
        fen: "startpos".into(),
        turn: Side::First,
        ply: 0,
        moves: vec![],
        clocks: clocks(),
        legal: vec!["e2e4".into()],
        premoves: vec![],
        state: "live".into(),
        result: None,
        winner: None,
        reason: None,
        detail: None,
        article: None,
        draw_offer: None,
        must_change: None,
        offer_refused: None,
        takebacks: false,
        takeback_offer: None,
        claimable: false,
        claim: None,
        rules_profile: "online".into(),
        created_ms: 0,
        v: 0,
        away: Some(Away {
            side: Side::Second,
            claim_in_ms: 3,
        }),
        first_move: Some(play::protocol::FirstMove {
            since_ms: 1,
            window_ms: 60_000,
        }),
    };
    let s = Side::Second;
    vec![
        ServerMsg::Full {
            game: Box::new(game),
            you: Some(Side::First),
        },
        ServerMsg::Move {
            v: 1,
            ply: 1,
            side: Side::First,
            sides: Some(["black".into(), "white".into()]),
            coord: "e2e4".into(),
            display: "e4".into(),
            alt: "e2e4".into(),
            check: false,
            capture: false,
            fen: "f".into(),
            turn: s,
            clocks: clocks(),
            legal: vec![],
            premoves: vec![],
            claimable: true,
            claim: Some("fifty_moves".into()),
            announce: vec!["four".into(), "open_three".into()],
        },
        ServerMsg::MustChange {
            v: 2,
            side: s,
            detail: "d".into(),
            article: None,
        },
        ServerMsg::DrawOffer { v: 3, by: s },
        ServerMsg::DrawDeclined {
            v: 4,
            by: s,
            offer_by: s.other(),
        },
        ServerMsg::TakebackOffer { v: 5, by: s },
        ServerMsg::TakebackDeclined { v: 5, offer_by: s },
        ServerMsg::TakenBack {
            v: 5,
            by: s,
            plies: 2,
            ply: 3,
        },
        ServerMsg::Foul {
            v: 5,
            side: s,
            kind: session::FoulKind::FalseClaim,
            detail: "d".into(),
            article: None,
            count: 1,
        },
        ServerMsg::TimePenalty {
            v: 6,
            side: s,
            ms: 1,
            clocks: clocks(),
        },
        ServerMsg::TimeGiven {
            v: 7,
            side: s,
            ms: 1,
            clocks: clocks(),
        },
        ServerMsg::Clock {
            v: 8,
            clocks: clocks(),
        },
        ServerMsg::End {
            v: 9,
            state: "over".into(),
            result: Some("0-1".into()),
            winner: Some(s),
            reason: "checkmate".into(),
            detail: "d".into(),
            article: None,
            clocks: clocks(),
            ratings: BTreeMap::from([(
                s,
                RatingChange {
                    before: 1.0,
                    after: 2.0,
                },
            )]),
        },
        ServerMsg::PlayerGone {
            v: 10,
            side: s,
            claim_in_ms: 15_000,
        },
        ServerMsg::PlayerBack { v: 11, side: s },
        ServerMsg::Chat {
            room: ChatRoom::Spectators,
            from: "kibitzer".into(),
            text: "好棋".into(),
        },
        ServerMsg::error("c", "m"),
        ServerMsg::Pong,
    ]
}

#[test]
fn every_message_reads_back_as_written_with_its_kind() {
    for m in one_of_each() {
        let json = m.to_json();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["t"], m.kind(), "{json}");
        let back: ServerMsg = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
    }
}

fn lobby_one_of_each() -> Vec<LobbyMsg> {
    let seek = SeekView {
        id: "s1".into(),
        player: "张三".into(),
        rating: 1500.0,
        variant: "xiangqi/cxa".into(),
        time: "10+5".into(),
        rated: true,
        rating_min: Some(1400.0),
        rating_max: None,
        color: ColorChoice::Random,
    };
    let challenge = ChallengeView {
        id: "c1".into(),
        from: "a".into(),
        to: "b".into(),
        variant: "chess/standard".into(),
        time: "3+2".into(),
        rated: false,
        color: ColorChoice::First,
        fen: None,
        rules: registry::Profile::Online,
        rematch_of: Some("g0".into()),
    };
    let line = LobbyLine {
        room: ChatRoom::Lobby,
        from: "李四".into(),
        text: "有人下一盘吗？".into(),
        at_ms: 1,
    };
    vec![
        LobbyMsg::Seeks {
            seeks: vec![seek.clone()],
        },
        LobbyMsg::SeekAdded { seek },
        LobbyMsg::SeekRemoved { id: "s1".into() },
        LobbyMsg::GameStart {
            game: "g1".into(),
            color: Side::Second,
        },
        LobbyMsg::Challenge {
            challenge: challenge.clone(),
        },
        LobbyMsg::ChallengeDeclined {
            id: "c1".into(),
            by: "b".into(),
            challenge,
            reason: Some(lobby::DeclineReason::TooFast),
        },
        LobbyMsg::Notice {
            kind: NoticeKind::Move,
            from: "a".into(),
            game: Some("g1".into()),
        },
        LobbyMsg::ChatHistory {
            lines: vec![line.clone()],
        },
        LobbyMsg::Chat(line),
    ]
}

#[test]
fn every_lobby_message_reads_back_as_written_with_its_kind() {
    for m in lobby_one_of_each() {
        let json = m.to_json();
        let v: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(v["t"], m.kind(), "{json}");
        let back: LobbyMsg = serde_json::from_str(&json).unwrap();
        assert_eq!(back, m);
    }
}

const WEBSOCKET_MD: &str = include_str!("../../../docs/websocket.md");

/// The `t` of each row of the first table after `heading` in
/// docs/websocket.md.
fn documented_kinds(heading: &str) -> std::collections::BTreeSet<String> {
    let table = WEBSOCKET_MD
        .split(heading)
        .nth(1)
        .and_then(|rest| rest.split("\n\n").find(|b| b.trim_start().starts_with('|')))
        .unwrap_or_else(|| panic!("a table after {heading}"));
    table
        .lines()
        .skip(2) // the header and its rule
        .filter_map(|l| l.strip_prefix("| `"))
        .filter_map(|l| l.split('`').next())
        .map(String::from)
        .collect()
}

/// The lobby socket's table in docs/websocket.md lists exactly the
/// messages of [`LobbyMsg`], and the game protocol's `error`.
#[test]
fn docs_websocket_md_describes_the_lobby_enum() {
    let documented = documented_kinds("## `/api/lobby/ws`");
    let mut ours: std::collections::BTreeSet<String> =
        lobby_one_of_each().iter().map(|m| m.kind().to_string()).collect();
    ours.insert(ServerMsg::error("c", "m").kind().to_string());
    assert_eq!(documented, ours);
}

/// docs/websocket.md lists exactly the messages of [`ServerMsg`] in the
/// game socket's server → client table, and its example lines read as
/// messages of this protocol.
#[test]
fn docs_websocket_md_describes_this_enum() {
    let documented = documented_kinds("### Server → client");
    let ours: std::collections::BTreeSet<String> =
        one_of_each().iter().map(|m| m.kind().to_string()).collect();
    assert_eq!(documented, ours);
    let examples: Vec<&str> = WEBSOCKET_MD
        .lines()
        .filter_map(|l| l.strip_prefix("← "))
        .filter(|l| l.contains("\"v\"") || l.contains("\"t\":\"full\"") || l.contains("\"t\":\"error\""))
        .collect();
    assert!(examples.len() >= 3, "examples: {examples:?}");
    for e in examples {
        serde_json::from_str::<ServerMsg>(e).unwrap_or_else(|err| panic!("{e}: {err}"));
    }
}
