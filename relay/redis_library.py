"""The Redis function library every relay process shares: the only code that writes a room.

Each function takes the keys of one room (they share the hash tag ``{room id}``) and does its
whole job atomically: check, number, ``XADD``. A frame is built here around its number
(``head + uint(seq) + tail``, see :func:`relay.envelope.message_parts`) and kept in the
room's stream as entry ``<seq>-1``; it is also published to the channel of each process
reading the room (:func:`channel`), which hears it on the connection its own appends go down
(:mod:`relay.redis_link`): one message, no stream to read back. A process that was not
sent a number (its lease on the room had lapsed) fetches it from the room's stream.

Epochs: the library remembers, in a local of its own, a name for this Redis's life (the
first ``TIME`` it saw); it is gone after a restart, and a replica that takes over never had
it. A room last numbered in another life may have lost its newest events (``appendfsync
everysec`` loses up to a second on a crash; a replica may lag), so its first touch in a new
life starts a new epoch at the number it has (``base``). Loading the library again
(``FUNCTION LOAD REPLACE``, only ever done for a new version) does the same, which is safe.

Clocks: whether a process's lease on a room still runs (whom an event is published to, whose
members are let go) and every other time kept here are decided on Redis's clock (``TIME``),
never on a relay host's: hosts whose clocks disagree would otherwise take each other for dead.

Versions: every function first checks :data:`VERSION_KEY` (see there).
"""

from __future__ import annotations

NAME = "tablier_relay_5"
"""The library's name, one per version of what it writes: version 2 published events to the
reading processes (version 1 filled an inbox stream per process); version 3 decides leases on
Redis's clock and checks :data:`VERSION_KEY`; version 4 numbers frames of envelope version 5
(a sender asks for its number), which the clients of version 3's processes cannot read;
version 5 refuses a new room that Redis's memory could not hold full (``tablier_count_room``
takes Redis's memory figures), which version 4's processes would not pass. Two
versions must never number one Redis's rooms together (``relay.redis_backplane`` refuses
to)."""
PREFIX = "tablier_relay_"
VERSION_KEY = "tablier:relay:library"
"""Names the version whose processes serve this Redis: set by a process that loaded its
library and found no other version's, and checked by every function of the library before
anything else. A process of another version that loads its library beside ours (a late start
of an old one, two started at once) takes the key, and from then on every call of ours is
refused with :data:`VERSION_ERROR`; it is refused likewise by its own calls once we take it
back, or sees our library when it looks. Versions from 3 on keep this key and this check."""
VERSION_ERROR = "TABLIER_VERSION"
"""How a function's refusal starts when the key names another version (or none)."""


def channel(process: str) -> str:
    """The Pub/Sub channel where Redis publishes to ``process`` the events of its rooms."""
    return f"tablier:process:{process}"


_SOURCE = r"""#!lua name=@NAME@

local life
local function this_life()
  if not life then
    local t = redis.call('TIME')
    life = t[1] .. '.' .. t[2]
  end
  return life
end

-- Redis's clock, in ms: who is alive is decided on this one clock, never on the relay
-- hosts', which may disagree by seconds.
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end

-- Every function first checks that this Redis serves this version's relays (see
-- relay.redis_library.VERSION_KEY): another version's processes never number our rooms
-- beside us, nor we theirs.
local function register(name, body)
  redis.register_function(name, function(keys, args)
    local serving = redis.call('GET', '@VERSION_KEY@')
    if serving ~= '@NAME@' then
      return redis.error_reply('@VERSION_ERROR@ ' .. (serving or 'none'))
    end
    return body(keys, args)
  end)
end

local function b4(x)
  return string.char(math.floor(x / 16777216) % 256, math.floor(x / 65536) % 256,
                     math.floor(x / 256) % 256, x % 256)
end

-- msgpack's smallest encoding of a non-negative integer (below 2^53: Lua's are doubles)
local function uint(n)
  if n < 128 then return string.char(n) end
  if n < 256 then return '\204' .. string.char(n) end
  if n < 65536 then return '\205' .. string.char(math.floor(n / 256), n % 256) end
  if n < 4294967296 then return '\206' .. b4(n) end
  return '\207' .. b4(math.floor(n / 4294967296)) .. b4(n % 4294967296)
end

-- The room's next number and epoch (nil: no such room), a new epoch if it was last
-- numbered in another life of this Redis.
local function numbering(meta, new_epoch)
  local m = redis.call('HMGET', meta, 'seq', 'epoch', 'base', 'life')
  if not m[1] then return nil end
  if m[4] ~= this_life() then
    redis.call('HSET', meta, 'epoch', new_epoch, 'base', m[1], 'life', this_life())
    return tonumber(m[1]), new_epoch, m[1]
  end
  return tonumber(m[1]), m[2], m[3]
end

-- The processes that read a room: those whose lease on it runs past now (but one).
local function readers(leases, now, but)
  local found = {}
  for _, process in ipairs(redis.call('ZRANGEBYSCORE', leases, now, '+inf')) do
    if process ~= but then found[#found + 1] = process end
  end
  return found
end

-- Keep one event as entry <seq>-1 of the room's log, trim the log to its count and bytes
-- (r.size: the bytes it holds, which the caller stores with the next number), and publish
-- it at once to every process reading the room ("room\nseq\nepoch\nholder\nseat\npresence\n
-- frame": the frame last, as it may hold anything). r: the room's keys and numbering, as the
-- caller has them.
local function append(r, seq, holder, seat, presence, head, tail)
  local frame = head .. uint(seq) .. tail
  redis.call('XADD', r.log, seq .. '-1', 'f', frame, 'e', r.epoch, 'h', holder, 's', seat,
             'p', presence)
  r.size = r.size + #frame
  local kept = redis.call('XLEN', r.log)
  while kept > r.count or (r.size > r.bytes and kept > 1) do
    local oldest = redis.call('XRANGE', r.log, '-', '+', 'COUNT', 1)[1]
    redis.call('XDEL', r.log, oldest[1])
    r.size = r.size - #oldest[2][2]
    kept = kept - 1
  end
  if #r.readers > 0 then
    local event = table.concat({r.room, seq, r.epoch, holder, seat, presence, frame}, '\n')
    for _, process in ipairs(r.readers) do
      redis.call('PUBLISH', 'tablier:process:' .. process, event)
    end
  end
end

-- KEYS meta, log, leases. ARGV holder, seat, head, tail, new epoch, backlog count, backlog
-- bytes, room id, the appending process (not published to: it has the answer).
register('tablier_append', function(keys, args)
  -- The hot path: one read of the room's numbering and of the seat's holder.
  local m = redis.call('HMGET', keys[1], 'seq', 'epoch', 'life', 'h' .. args[2], 'bytes')
  if not m[1] then return {'gone'} end
  if m[4] ~= args[1] then return {'not_holder'} end
  local seq, epoch = tonumber(m[1]), m[2]
  if m[3] ~= this_life() then seq, epoch = numbering(keys[1], args[5]) end
  local r = {meta = keys[1], log = keys[2], epoch = epoch, count = tonumber(args[6]),
             bytes = tonumber(args[7]), room = args[8], size = tonumber(m[5]) or 0,
             readers = readers(keys[3], now_ms(), args[9])}
  append(r, seq, args[1], args[2], '', args[3], args[4])
  redis.call('HSET', keys[1], 'seq', seq + 1, 'bytes', r.size)
  return {'ok', tostring(seq), epoch}
end)

-- KEYS meta, state, leases. ARGV new epoch.
-- The state to decide on: version, next number, epoch, base, state bytes, the live
-- processes (whose lease runs past now), and now (ms, Redis's clock: the rules decide on it).
register('tablier_load', function(keys, args)
  local seq, epoch, base = numbering(keys[1], args[1])
  if not seq then return false end
  local now = now_ms()
  local live = redis.call('ZRANGEBYSCORE', keys[3], now, '+inf')
  return {redis.call('HGET', keys[1], 'v'), tostring(seq), epoch, base,
          redis.call('GET', keys[2]), live, tostring(now)}
end)

-- KEYS meta, state, log, leases. ARGV version, epoch (as loaded), state, ttl (ms), new
-- epoch, backlog count, backlog bytes, first number to return, the processes that hold
-- something in the new state (comma-separated), the committing process and its lease (ms),
-- room id, holders (n, then seat and holder n times; '' for none), events (n, then holder,
-- seat, presence, head, tail).
-- Stores the state if nobody changed it since it was loaded, numbers the events, and
-- returns the first number, the next one, and {seq, frame, ...} from the one asked for.
register('tablier_commit', function(keys, args)
  local meta, log = keys[1], keys[3]
  if redis.call('HGET', meta, 'v') ~= args[1] then return {'conflict'} end
  local seq, epoch = numbering(meta, args[5])
  if epoch ~= args[2] then return {'conflict'} end
  local now = now_ms()
  redis.call('SET', keys[2], args[3])
  redis.call('HINCRBY', meta, 'v', 1)
  redis.call('HSET', meta, 'procs', args[9])
  redis.call('ZADD', keys[4], now + tonumber(args[11]), args[10])  -- its holders are alive
  local at = 13
  for _ = 1, tonumber(args[at]) do
    if args[at + 2] == '' then
      redis.call('HDEL', meta, 'h' .. args[at + 1])
    else
      redis.call('HSET', meta, 'h' .. args[at + 1], args[at + 2])
    end
    at = at + 2
  end
  at = at + 1
  local r = {meta = meta, log = log, epoch = epoch, count = tonumber(args[6]),
             bytes = tonumber(args[7]), room = args[12],
             size = tonumber(redis.call('HGET', meta, 'bytes')) or 0,
             readers = readers(keys[4], now)}
  local first = seq
  for _ = 1, tonumber(args[at]) do
    append(r, seq, args[at + 1], args[at + 2], args[at + 3], args[at + 4], args[at + 5])
    seq = seq + 1
    at = at + 5
  end
  redis.call('HSET', meta, 'seq', seq, 'bytes', r.size)
  for _, key in ipairs(keys) do redis.call('PEXPIRE', key, args[4]) end
  local frames = {}
  for _, entry in ipairs(redis.call('XRANGE', log, args[8] .. '-0', '+')) do
    frames[#frames + 1] = string.match(entry[1], '^(%d+)')
    frames[#frames + 1] = entry[2][2]
  end
  return {'ok', tostring(first), tostring(seq), frames}
end)

-- KEYS meta, state, log, leases. ARGV state, ttl (ms), new epoch. 1: created; 0: it was
-- there already (another member brought it back first).
register('tablier_create', function(keys, args)
  if redis.call('EXISTS', keys[1]) == 1 then return 0 end
  redis.call('HSET', keys[1], 'v', 1, 'seq', 0, 'epoch', args[3], 'base', 0,
             'life', this_life(), 'bytes', 0)
  redis.call('SET', keys[2], args[1])
  for _, key in ipairs(keys) do redis.call('PEXPIRE', key, args[2]) end
  return 1
end)

-- KEYS meta, state, log, leases. ARGV process, lease (ms), ttl (ms; 0: not this time).
-- Renews this process's lease on the room, and the room's life if asked (far less often:
-- its keys live for the idle room's time). {-1} if the room is gone; else {lapsed, next
-- number}: lapsed is 1 if a process that holds a seat or watches here has let its lease
-- lapse (its holders must be let go), and the next number tells the caller whether it
-- missed events that were not published to it.
register('tablier_lease', function(keys, args)
  local m = redis.call('HMGET', keys[1], 'seq', 'procs')
  if not m[1] then return {-1} end
  local now = now_ms()
  redis.call('ZADD', keys[4], now + tonumber(args[2]), args[1])
  if args[3] ~= '0' then
    redis.call('ZREMRANGEBYSCORE', keys[4], '-inf', now - 3600000)
    for _, key in ipairs(keys) do redis.call('PEXPIRE', key, args[3]) end
  end
  local lapsed = 0
  for process in string.gmatch(m[2] or '', '[^,]+') do
    local until_ms = redis.call('ZSCORE', keys[4], process)
    if not until_ms or tonumber(until_ms) < now then lapsed = 1 end
  end
  return {lapsed, m[1]}
end)

-- KEYS a failure bucket. ARGV failures allowed a minute, 1 to count one.
-- 1 if the address is throttled (no failure left to spend), else 0.
register('tablier_failures', function(keys, args)
  local now, burst = now_ms(), tonumber(args[1])
  local b = redis.call('HMGET', keys[1], 'tokens', 'at')
  local tokens, at = tonumber(b[1]) or burst, tonumber(b[2]) or now
  tokens = math.min(burst, tokens + math.max(0, now - at) * burst / 60000)
  local throttled = tokens < 1 and 1 or 0
  if args[2] == '1' then tokens = math.max(0, tokens - 1) end
  redis.call('HSET', keys[1], 'tokens', tokens, 'at', now)
  redis.call('PEXPIRE', keys[1], 60000)
  return throttled
end)

-- KEYS every room, this address's rooms. ARGV room, its life (ms), most rooms, most rooms
-- per address, and Redis's memory as the caller last read it (INFO memory): used_memory,
-- maxmemory (0: no limit), the most a room can take (relay.redis_backplane.room_bytes) and
-- the share kept for Redis's own needs. 'ok' (counted), 'full', 'address_full' or 'memory'.
--
-- 'memory': once every room counted and the new one have taken all they may, Redis would
-- need more than its maxmemory. What they may still take is each room's most less what it
-- holds now, of which only its frames are known (its meta's 'bytes'): counting the rest of a
-- room's present memory twice errs on the safe side. The rooms are summed only when the
-- rough sum (nothing subtracted) does not fit already: near the limit, once per creation.
register('tablier_count_room', function(keys, args)
  local now = now_ms()
  for _, key in ipairs(keys) do redis.call('ZREMRANGEBYSCORE', key, '-inf', now) end
  if redis.call('ZSCORE', keys[1], args[1]) == false then
    local rooms = redis.call('ZCARD', keys[1])
    if rooms >= tonumber(args[3]) then return 'full' end
    if redis.call('ZCARD', keys[2]) >= tonumber(args[4]) then return 'address_full' end
    local most = tonumber(args[6])
    if most > 0 then
      local need = tonumber(args[5]) + (rooms + 1) * tonumber(args[7]) + tonumber(args[8])
      if need > most then
        for _, room in ipairs(redis.call('ZRANGE', keys[1], 0, -1)) do
          local held = redis.call('HGET', 'tablier:{' .. room .. '}:meta', 'bytes')
          need = need - (tonumber(held) or 0)
        end
        if need > most then return 'memory' end
      end
    end
  end
  redis.call('ZADD', keys[1], now + tonumber(args[2]), args[1])
  redis.call('ZADD', keys[2], now + tonumber(args[2]), args[1])
  redis.call('PEXPIRE', keys[2], args[2])
  return 'ok'
end)

-- KEYS every room, its creator's rooms. ARGV room, its life (ms). Still there: count it on.
register('tablier_room_lives', function(keys, args)
  local ends = now_ms() + tonumber(args[2])
  redis.call('ZADD', keys[1], 'XX', ends, args[1])
  redis.call('ZADD', keys[2], 'XX', ends, args[1])
  redis.call('PEXPIRE', keys[2], args[2])
  return 0
end)

-- No keys. Does nothing, but Redis takes it for a write (as every function here): it is
-- refused exactly when Redis refuses writes (out of memory, a read-only replica, too few
-- replicas), so a process that saw writes refused asks it until they are taken again.
register('tablier_probe', function(keys, args)
  return 1
end)
"""
SOURCE = (
    _SOURCE.replace("@NAME@", NAME)
    .replace("@VERSION_KEY@", VERSION_KEY)
    .replace("@VERSION_ERROR@", VERSION_ERROR)
)
"""The library's code, as loaded into Redis."""
