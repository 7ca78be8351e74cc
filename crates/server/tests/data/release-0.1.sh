set -e
B=http://127.0.0.1:18931
/tmp/ci/target/release/qiju serve --listen 127.0.0.1:18931 --database sqlite:///tmp/fixture/before-sides.db --abort-after 100000 > server.log 2>&1 &
PID=$!
for i in $(seq 1 50); do curl -sf $B/api/health && break; sleep 0.2; done
reg() { curl -s -c $1.jar -H 'x-qiju-csrf: 1' -H 'content-type: application/json' -d "{\"name\":\"$1\",\"password\":\"correct horse\"}" $B/api/auth/register >/dev/null; }
post() { curl -s -b $1.jar -H 'x-qiju-csrf: 1' -H 'content-type: application/json' -d "$3" $B$2; }
reg alice; reg bob
# A finished rated game (alice red mates?) — use a challenge with colour red for alice.
ch=$(post alice /api/challenges '{"to":"bob","time":"10+5","color":"red","rated":true}')
id=$(echo $ch | python3 -c 'import json,sys;print(json.load(sys.stdin)["id"])')
g=$(post bob /api/challenges/$id/accept '{}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["game"])')
echo finished=$g
p=1
for m in h2e2 h9g7 h0g2 i9h9 i0h0 b9c7; do
  if [ $((p % 2)) = 1 ]; then u=alice; else u=bob; fi
  post $u "/api/games/$g/move/$m?ply=$p" '' ; echo; p=$((p+1))
done
post bob /api/games/$g/resign ''; echo
# A live game: bob red, two moves played.
ch=$(post alice /api/challenges '{"to":"bob","time":"10+5","color":"black","rated":true}')
id=$(echo $ch | python3 -c 'import json,sys;print(json.load(sys.stdin)["id"])')
g2=$(post bob /api/challenges/$id/accept '{}' | python3 -c 'import json,sys;print(json.load(sys.stdin)["game"])')
echo live=$g2
post bob "/api/games/$g2/move/h2e2?ply=1" ''; echo
post alice "/api/games/$g2/move/h9g7?ply=2" ''; echo
curl -s $B/api/games/$g | head -c 300; echo
curl -s $B/api/users/alice | head -c 300; echo
kill $PID; wait $PID || true
echo "$g $g2" > ids.txt
