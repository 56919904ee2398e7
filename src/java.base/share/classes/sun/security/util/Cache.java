/*
 * Copyright (c) 2026, the java.base patch set contributors.
 * SPDX-License-Identifier: GPL-2.0-only WITH Classpath-exception-2.0
 */

package sun.security.util;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.SoftReference;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * A bounded key-value cache with an optional lifetime for its entries,
 * and the factory for its implementations.
 *
 * <p>The memory caches returned by the factory methods have these
 * properties:
 * <ul>
 * <li>keys and values are held in memory, values either strongly or
 *     through {@link SoftReference}s, so that the garbage collector may
 *     drop them under memory pressure;
 * <li>a maximum size; when a put would exceed it, the entry that was put
 *     longest ago is dropped (first in, first out; reading an entry does
 *     not change its place);
 * <li>an optional lifetime in seconds, counted from the moment an entry
 *     was put, measured with {@link System#nanoTime()} so that stepping the
 *     wall clock has no effect; changing the lifetime applies to the
 *     entries already cached;
 * <li>no operation other than {@link #size()}, {@link #accept},
 *     {@link #setCapacity} and {@link #clear()} does more than a small,
 *     fixed amount of work, however many entries expire at once: expired
 *     entries are removed a few at a time by the operations that follow;
 * <li>safe for concurrent use by multiple threads.
 * </ul>
 *
 * <p>A size or a lifetime that is zero or negative means "unbounded".
 * Keys and values may be {@code null}, as in earlier releases; a soft cache
 * cannot tell a {@code null} value from one the garbage collector cleared,
 * so putting {@code null} into a soft cache removes the key.
 *
 * @param <K> the type of the keys
 * @param <V> the type of the values
 */
public abstract class Cache<K,V> {

    /**
     * Constructor for subclasses.
     */
    protected Cache() {
        // nothing to initialize
    }

    /**
     * Returns the number of entries that have not expired.
     *
     * @return the number of entries in the cache
     */
    public abstract int size();

    /**
     * Removes every entry.
     */
    public abstract void clear();

    /**
     * Puts a value into the cache under a key, replacing any value the key
     * had. The entry's lifetime starts now.
     *
     * @param key the key
     * @param value the value
     */
    public abstract void put(K key, V value);

    /**
     * Puts a value into the cache, appending it to the key's queue of values
     * when {@code canQueue} is true and the cache was created with
     * {@link #newSoftMemoryQueue}. Otherwise it is the same as
     * {@link #put(Object, Object)}. A queued value is handed out once, by
     * {@link #get}, oldest first. A caller should use the same
     * {@code canQueue} for a key every time: a put without queueing replaces
     * the key's whole queue.
     *
     * @param key the key
     * @param value the value
     * @param canQueue whether the value may be queued under the key
     */
    public void put(K key, V value, boolean canQueue) {
        put(key, value);
    }

    /**
     * Returns the value cached under a key. For a key with a queue of
     * values, removes and returns the oldest value that has not expired.
     *
     * @param key the key
     * @return the value, or {@code null} if there is none or it expired
     */
    public abstract V get(Object key);

    /**
     * Removes the entry for a key, if there is one.
     *
     * @param key the key
     */
    public abstract void remove(Object key);

    /**
     * Removes the entry for a key and returns its value (for a key with a
     * queue of values, the oldest value that has not expired).
     *
     * @param key the key
     * @return the value, or {@code null} if there is none or it expired
     */
    public abstract V pull(Object key);

    /**
     * Sets the maximum number of entries, dropping the oldest entries if
     * there are more.
     *
     * @param size the maximum number of entries; zero or negative means
     *        unbounded
     */
    public abstract void setCapacity(int size);

    /**
     * Sets the lifetime of entries, including those already cached: an
     * entry expires once it has been in the cache for {@code timeout}
     * seconds. An entry that had already expired stays expired.
     *
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     */
    public abstract void setTimeout(int timeout);

    /**
     * Hands a snapshot of the entries that have not expired to a visitor.
     * The visitor may call this cache.
     *
     * @param visitor the visitor
     */
    public abstract void accept(CacheVisitor<K,V> visitor);

    /**
     * Returns a memory cache with the given maximum size whose entries do
     * not expire, with values held through soft references.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newSoftMemoryCache(int size) {
        return new MemoryCache<>(true, size, 0, 0);
    }

    /**
     * Returns a memory cache with the given maximum size and lifetime, with
     * values held through soft references.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newSoftMemoryCache(int size, int timeout) {
        return new MemoryCache<>(true, size, timeout, 0);
    }

    /**
     * Returns a memory cache with the given maximum size and lifetime, with
     * values held through soft references, that keeps up to
     * {@code maxQueueSize} values per key when they are put with
     * {@code canQueue} (see {@link #put(Object, Object, boolean)}).
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum number of keys; zero or negative means
     *        unbounded
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     * @param maxQueueSize the maximum number of values queued per key;
     *        zero means values are never queued
     * @return a new cache
     * @throws IllegalArgumentException if {@code maxQueueSize} is negative
     */
    public static <K,V> Cache<K,V> newSoftMemoryQueue(int size, int timeout,
            int maxQueueSize) {
        return new MemoryCache<>(true, size, timeout, maxQueueSize);
    }

    /**
     * Returns a memory cache with the given maximum size whose entries do
     * not expire, with values held strongly.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newHardMemoryCache(int size) {
        return new MemoryCache<>(false, size, 0, 0);
    }

    /**
     * Returns a memory cache with the given maximum size and lifetime, with
     * values held strongly.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @param size the maximum size; zero or negative means unbounded
     * @param timeout the lifetime in seconds; zero or negative means
     *        entries do not expire
     * @return a new cache
     */
    public static <K,V> Cache<K,V> newHardMemoryCache(int size, int timeout) {
        return new MemoryCache<>(false, size, timeout, 0);
    }

    /**
     * Returns a cache that holds nothing.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     * @return the cache that holds nothing
     */
    @SuppressWarnings("unchecked")
    public static <K,V> Cache<K,V> newNullCache() {
        return (Cache<K,V>) NullCache.INSTANCE;
    }

    /**
     * A byte array key, equal to another one with the same contents.
     * The array is not copied: it must not change while the key is in use.
     */
    public static class EqualByteArray {

        private final byte[] b;
        // computed lazily; 0 also for an empty array, which is cheap anyway
        private int hash;

        /**
         * Wraps a byte array.
         *
         * @param b the array
         * @throws NullPointerException if {@code b} is null
         */
        public EqualByteArray(byte[] b) {
            this.b = Objects.requireNonNull(b, "byte array");
        }

        /**
         * Returns a hash code that depends on the contents of the array.
         *
         * @return the hash code
         */
        @Override
        public int hashCode() {
            int h = hash;
            if (h == 0) {
                h = Arrays.hashCode(b);
                hash = h;
            }
            return h;
        }

        /**
         * Returns whether another object is an {@code EqualByteArray} with
         * the same contents.
         *
         * @param obj the other object
         * @return true if the contents are equal
         */
        @Override
        public boolean equals(Object obj) {
            return obj == this
                    || (obj instanceof EqualByteArray other
                        && Arrays.equals(b, other.b));
        }
    }

    /**
     * Receives the entries of a cache from {@link Cache#accept}.
     *
     * @param <K> the type of the keys
     * @param <V> the type of the values
     */
    public interface CacheVisitor<K,V> {

        /**
         * Visits the entries of the cache.
         *
         * @param map a snapshot of the entries, owned by the visitor
         */
        void visit(Map<K,V> map);
    }
}

/**
 * The cache that holds nothing.
 */
final class NullCache<K,V> extends Cache<K,V> {

    static final Cache<Object,Object> INSTANCE = new NullCache<>();

    private NullCache() {
    }

    @Override
    public int size() {
        return 0;
    }

    @Override
    public void clear() {
    }

    @Override
    public void put(K key, V value) {
    }

    @Override
    public V get(Object key) {
        return null;
    }

    @Override
    public void remove(Object key) {
    }

    @Override
    public V pull(Object key) {
        return null;
    }

    @Override
    public void setCapacity(int size) {
    }

    @Override
    public void setTimeout(int timeout) {
    }

    @Override
    public void accept(CacheVisitor<K,V> visitor) {
    }
}

/**
 * The memory cache.
 *
 * <p>Entries are nodes that live in two structures at once: a hash table
 * (chained, grown incrementally so that no single put rehashes the whole
 * table) and a doubly linked list in insertion order. Every node records
 * when it was put; all nodes share the cache's current lifetime, so the
 * expired nodes are always a prefix of the list. Each operation removes at
 * most {@link #STEP} nodes from that prefix, polls at most {@code STEP}
 * cleared soft references and moves at most {@code STEP} hash buckets, so
 * a burst of expiries is paid off over the operations that follow.
 *
 * <p>A node is a {@link SoftReference}: in a soft cache its referent is the
 * value; in a hard cache the referent is null and {@link Node#value} holds
 * the value. One class for both keeps the per-entry memory at or below the
 * stock implementation's (a 64-byte node against the stock
 * 32-byte map entry plus 32-byte or 48-byte cache entry, with compressed
 * references) and one code path.
 */
final class MemoryCache<K,V> extends Cache<K,V> {

    /** The most nodes, references or buckets one operation handles. */
    static final int STEP = 4;

    private static final int MIN_TABLE = 16;
    private static final int MAX_TABLE = 1 << 30;
    private static final long NANOS_PER_SECOND = 1_000_000_000L;

    private final boolean soft;
    private final int maxQueueSize;
    private final LongSupplier clock;

    private ReferenceQueue<V> queue;     // soft caches only; replaced by clear()

    private Node<K,V>[] table;           // null until the first put
    private Node<K,V>[] oldTable;        // being emptied into table, or null
    private int migrated;                // buckets of oldTable already moved
    private Node<K,V> head;              // oldest node
    private Node<K,V> tail;              // newest node
    private int count;                   // nodes in the list (and the table)

    private int maxSize;                 // 0: unbounded
    private long lifetime;               // nanoseconds; 0: no expiry
    // Nodes put at or before floor had expired when the lifetime last
    // changed; they stay expired even if the new lifetime is longer.
    private long floor;
    private boolean floorActive;

    /**
     * Test hook: how many nodes, buckets and references the maintenance
     * work has examined, so a test can check the work per operation
     * without measuring time.
     */
    long examined;

    MemoryCache(boolean soft, int maxSize, int timeout, int maxQueueSize) {
        this(soft, maxSize, timeout, maxQueueSize, null);
    }

    /**
     * Creates a cache that reads the time from {@code clock} (nanoseconds,
     * like {@link System#nanoTime()}), or from {@code System.nanoTime()}
     * when {@code clock} is null.
     */
    MemoryCache(boolean soft, int maxSize, int timeout, int maxQueueSize,
            LongSupplier clock) {
        if (maxQueueSize < 0) {
            throw new IllegalArgumentException(
                    "negative maximum queue size: " + maxQueueSize);
        }
        this.soft = soft;
        this.maxQueueSize = maxQueueSize;
        this.clock = clock;
        this.queue = soft ? new ReferenceQueue<>() : null;
        this.maxSize = Math.max(maxSize, 0);
        this.lifetime = toNanos(timeout);
    }

    private static long toNanos(int seconds) {
        // at most 2^31 * 10^9 < 2^63: cannot overflow
        return seconds > 0 ? seconds * NANOS_PER_SECOND : 0L;
    }

    private long now() {
        return clock == null ? System.nanoTime() : clock.getAsLong();
    }

    // ---- time

    private boolean expired(long inserted, long now) {
        // differences, never absolute comparisons: nanoTime may wrap
        return (floorActive && inserted - floor <= 0)
                || (lifetime > 0 && now - inserted >= lifetime);
    }

    // ---- public operations

    @Override
    public synchronized int size() {
        long now = now();
        drainQueue(Integer.MAX_VALUE);
        expunge(now, Integer.MAX_VALUE);
        return count;
    }

    @Override
    public synchronized void clear() {
        // The nodes become garbage together with the table and the list.
        // References the GC already queued are left behind in the old
        // queue, so they can never be mistaken for nodes of the new table.
        table = null;
        oldTable = null;
        migrated = 0;
        head = null;
        tail = null;
        count = 0;
        floorActive = false;
        if (soft) {
            queue = new ReferenceQueue<>();
        }
    }

    @Override
    public void put(K key, V value) {
        put(key, value, false);
    }

    @Override
    public synchronized void put(K key, V value, boolean canQueue) {
        long now = now();
        maintain(now);
        Node<K,V> old = find(key);
        if (value == null && soft) {
            // a soft reference to null looks like a cleared one
            if (old != null) {
                unlink(old);
            }
            return;
        }
        if (canQueue && maxQueueSize > 0) {
            if (old != null && old.value instanceof Tickets<?,?>
                    && !expired(old.time, now)) {
                @SuppressWarnings("unchecked")
                Tickets<K,V> tickets = (Tickets<K,V>) old.value;
                addTicket(old, tickets, value, now);
                moveToTail(old, now);
                return;
            }
            if (old != null) {
                unlink(old);
            }
            Node<K,V> n = new Node<>(key, null, now, null);
            Tickets<K,V> tickets = new Tickets<>(maxQueueSize);
            n.value = tickets;
            addTicket(n, tickets, value, now);
            insert(n);
            return;
        }
        if (old != null) {
            unlink(old);
        }
        Node<K,V> n = new Node<>(key, soft ? value : null, now, queue);
        if (!soft) {
            n.value = value;
        }
        insert(n);
    }

    @Override
    public synchronized V get(Object key) {
        long now = now();
        maintain(now);
        Node<K,V> n = find(key);
        if (n == null) {
            return null;
        }
        if (expired(n.time, now)) {
            unlink(n);
            return null;
        }
        if (n.value instanceof Tickets<?,?>) {
            @SuppressWarnings("unchecked")
            Tickets<K,V> tickets = (Tickets<K,V>) n.value;
            V v = takeTicket(tickets, now);
            if (tickets.isEmpty()) {
                unlink(n);
            }
            return v;
        }
        V v = valueOf(n);
        if (v == null && soft) {
            unlink(n);      // cleared by the GC
        }
        return v;
    }

    @Override
    public synchronized void remove(Object key) {
        maintain(now());
        Node<K,V> n = find(key);
        if (n != null) {
            unlink(n);
        }
    }

    @Override
    public synchronized V pull(Object key) {
        long now = now();
        maintain(now);
        Node<K,V> n = find(key);
        if (n == null) {
            return null;
        }
        V v = null;
        if (!expired(n.time, now)) {
            if (n.value instanceof Tickets<?,?>) {
                @SuppressWarnings("unchecked")
                Tickets<K,V> tickets = (Tickets<K,V>) n.value;
                v = takeTicket(tickets, now);
            } else {
                v = valueOf(n);
            }
        }
        unlink(n);
        return v;
    }

    @Override
    public synchronized void setCapacity(int size) {
        long now = now();
        maintain(now);
        maxSize = Math.max(size, 0);
        // the oldest go first, and the expired ones are the oldest
        while (maxSize > 0 && count > maxSize) {
            examined++;
            unlink(head);
        }
    }

    @Override
    public synchronized void setTimeout(int timeout) {
        long now = now();
        maintain(now);
        if (lifetime > 0) {
            long f = now - lifetime;
            if (!floorActive || f - floor > 0) {
                floor = f;
                floorActive = head != null;
            }
        }
        lifetime = toNanos(timeout);
    }

    @Override
    public void accept(CacheVisitor<K,V> visitor) {
        Map<K,V> snapshot;
        synchronized (this) {
            long now = now();
            maintain(now);
            snapshot = new HashMap<>(Math.max(16, (int) (count / 0.75f) + 1));
            // newest first: the walk stops at the first expired node, so it
            // never touches the expired prefix
            for (Node<K,V> n = tail; n != null; n = n.before) {
                if (expired(n.time, now)) {
                    break;
                }
                V v;
                if (n.value instanceof Tickets<?,?>) {
                    @SuppressWarnings("unchecked")
                    Tickets<K,V> tickets = (Tickets<K,V>) n.value;
                    v = peekTicket(tickets, now);
                    if (v == null) {
                        continue;
                    }
                } else {
                    v = valueOf(n);
                    if (v == null && soft) {
                        continue;
                    }
                }
                snapshot.put(n.key, v);
            }
        }
        // outside the lock: the visitor may use the cache
        visitor.visit(snapshot);
    }

    // ---- bounded maintenance

    /** The bounded work every operation does before its own. */
    private void maintain(long now) {
        if (soft) {
            drainQueue(STEP);
        }
        expunge(now, STEP);
        if (oldTable != null) {
            migrate(STEP);
        }
    }

    /** Removes up to {@code budget} expired nodes from the head. */
    private void expunge(long now, int budget) {
        while (budget-- > 0 && head != null) {
            examined++;
            if (!expired(head.time, now)) {
                break;
            }
            unlink(head);
        }
        if (floorActive && (head == null || head.time - floor > 0)) {
            // every node put before the floor is gone; drop it before
            // nanoTime can wrap around it
            floorActive = false;
        }
    }

    /** Purges up to {@code budget} nodes and tickets the GC cleared. */
    private void drainQueue(int budget) {
        if (!soft) {
            return;
        }
        while (budget-- > 0) {
            Object r = queue.poll();
            if (r == null) {
                return;
            }
            examined++;
            @SuppressWarnings("unchecked")
            Node<K,V> n = (Node<K,V>) r;
            if (n.isRemoved()) {
                continue;
            }
            if (n instanceof Ticket<K,V> t) {
                Node<K,V> owner = t.owner;
                @SuppressWarnings("unchecked")
                Tickets<K,V> tickets = (Tickets<K,V>) owner.value;
                tickets.removeCleared(this);
                if (tickets.isEmpty()) {
                    unlink(owner);
                }
            } else {
                unlink(n);
            }
        }
    }

    // ---- the list and the table

    private V valueOf(Node<K,V> n) {
        if (soft) {
            return n.get();
        }
        @SuppressWarnings("unchecked")
        V v = (V) n.value;
        return v;
    }

    private static int hash(Object key) {
        if (key == null) {
            return 0;
        }
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    private Node<K,V> find(Object key) {
        if (table == null) {
            return null;
        }
        int h = hash(key);
        if (oldTable != null) {
            // nodes put since the growth began are in the new table even
            // when their old bucket has not moved yet
            int i = h & (oldTable.length - 1);
            if (i >= migrated) {
                Node<K,V> n = findIn(oldTable[i], key, h);
                if (n != null) {
                    return n;
                }
            }
        }
        return findIn(table[h & (table.length - 1)], key, h);
    }

    private static <K,V> Node<K,V> findIn(Node<K,V> n, Object key, int h) {
        for (; n != null; n = n.chain) {
            if (n.hash == h && (n.key == key
                    || (key != null && key.equals(n.key)))) {
                return n;
            }
        }
        return null;
    }

    /** Adds a new node to the table and at the tail of the list. */
    private void insert(Node<K,V> n) {
        if (table == null) {
            table = newTable(MIN_TABLE);
        } else if (oldTable == null && count >= table.length / 4 * 3
                && table.length < MAX_TABLE) {
            // grow; the buckets move a few at a time (see migrate)
            oldTable = table;
            table = newTable(table.length * 2);
            migrated = 0;
        }
        n.hash = hash(n.key);
        int i = n.hash & (table.length - 1);
        n.chain = table[i];
        table[i] = n;
        append(n);
        count++;
        while (maxSize > 0 && count > maxSize) {
            examined++;
            unlink(head);
        }
    }

    @SuppressWarnings("unchecked")
    private static <K,V> Node<K,V>[] newTable(int length) {
        return (Node<K,V>[]) new Node<?,?>[length];
    }

    /**
     * Moves up to {@code budget} buckets of the old table into the new one.
     * A table of L buckets grows at 3L/4 nodes, and the next growth needs
     * 3L/4 more puts; every put moves {@code STEP} buckets, so L/STEP puts
     * finish a migration long before the next one could start.
     */
    private void migrate(int budget) {
        Node<K,V>[] old = oldTable;
        int mask = table.length - 1;
        while (budget-- > 0 && migrated < old.length) {
            examined++;
            Node<K,V> n = old[migrated];
            old[migrated++] = null;
            while (n != null) {
                examined++;
                Node<K,V> next = n.chain;
                int i = n.hash & mask;
                n.chain = table[i];
                table[i] = n;
                n = next;
            }
        }
        if (migrated == old.length) {
            oldTable = null;
            migrated = 0;
        }
    }

    private void removeFromTable(Node<K,V> n) {
        if (oldTable != null) {
            int i = n.hash & (oldTable.length - 1);
            if (i >= migrated && unchain(oldTable, i, n)) {
                return;
            }
        }
        if (!unchain(table, n.hash & (table.length - 1), n)) {
            throw new IllegalStateException("node not in the table");
        }
    }

    private static <K,V> boolean unchain(Node<K,V>[] t, int i, Node<K,V> n) {
        Node<K,V> p = t[i];
        if (p == n) {
            t[i] = n.chain;
            return true;
        }
        for (; p != null; p = p.chain) {
            if (p.chain == n) {
                p.chain = n.chain;
                return true;
            }
        }
        return false;
    }

    private void append(Node<K,V> n) {
        n.before = tail;
        n.after = null;
        if (tail == null) {
            head = n;
        } else {
            tail.after = n;
        }
        tail = n;
    }

    private void detach(Node<K,V> n) {
        if (n.before == null) {
            head = n.after;
        } else {
            n.before.after = n.after;
        }
        if (n.after == null) {
            tail = n.before;
        } else {
            n.after.before = n.before;
        }
    }

    private void moveToTail(Node<K,V> n, long now) {
        detach(n);
        n.time = now;
        append(n);
    }

    /** Removes a node from the cache and drops its key and value. */
    private void unlink(Node<K,V> n) {
        removeFromTable(n);
        detach(n);
        count--;
        if (n.value instanceof Tickets<?,?>) {
            @SuppressWarnings("unchecked")
            Tickets<K,V> tickets = (Tickets<K,V>) n.value;
            tickets.dropAll();
        }
        n.dispose();
    }

    // ---- ticket queues

    private void addTicket(Node<K,V> owner, Tickets<K,V> tickets, V value,
            long now) {
        if (tickets.size() >= maxQueueSize) {
            tickets.removeFirst().dispose();
        }
        Ticket<K,V> t = new Ticket<>(owner, soft ? value : null, now, queue);
        if (!soft) {
            t.value = value;
        }
        tickets.addLast(t);
    }

    /** Removes and returns the oldest live ticket's value, or null. */
    private V takeTicket(Tickets<K,V> tickets, long now) {
        while (!tickets.isEmpty()) {
            examined++;
            Ticket<K,V> t = tickets.removeFirst();
            V v = expired(t.time, now) ? null : valueOf(t);
            t.dispose();
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /** Returns the oldest live ticket's value without taking it. */
    private V peekTicket(Tickets<K,V> tickets, long now) {
        for (Ticket<K,V> t : tickets) {
            V v = expired(t.time, now) ? null : valueOf(t);
            if (v != null) {
                return v;
            }
        }
        return null;
    }

    /**
     * A cache entry: a hash table node and a list node in one. See the
     * class comment for why it is a soft reference even in a hard cache.
     */
    static class Node<K,V> extends SoftReference<V> {
        int hash;
        K key;
        Object value;       // hard value, or the Tickets of a queue key
        Node<K,V> chain;    // next in the hash bucket
        Node<K,V> before;   // older in the list
        Node<K,V> after;    // newer in the list; this node once removed
        long time;          // when put, from the cache's clock

        Node(K key, V referent, long time, ReferenceQueue<V> queue) {
            super(referent, queue);
            this.key = key;
            this.time = time;
        }

        boolean isRemoved() {
            return after == this;
        }

        /** Drops key and value so a removed node holds on to nothing. */
        void dispose() {
            clear();
            key = null;
            value = null;
            chain = null;
            before = null;
            after = this;
        }
    }

    /** One value queued under a key. */
    static final class Ticket<K,V> extends Node<K,V> {
        Node<K,V> owner;

        Ticket(Node<K,V> owner, V referent, long time,
                ReferenceQueue<V> queue) {
            super(null, referent, time, queue);
            this.owner = owner;
        }

        @Override
        void dispose() {
            super.dispose();
            owner = null;
        }
    }

    /** The values queued under a key, oldest first. */
    static final class Tickets<K,V> implements Iterable<Ticket<K,V>> {
        private final ArrayDeque<Ticket<K,V>> deque;

        Tickets(int max) {
            deque = new ArrayDeque<>(max);
        }

        int size() {
            return deque.size();
        }

        boolean isEmpty() {
            return deque.isEmpty();
        }

        void addLast(Ticket<K,V> t) {
            deque.addLast(t);
        }

        Ticket<K,V> removeFirst() {
            return deque.removeFirst();
        }

        public Iterator<Ticket<K,V>> iterator() {
            return deque.iterator();
        }

        /** Drops the tickets whose values the GC cleared. */
        void removeCleared(MemoryCache<K,V> cache) {
            deque.removeIf(t -> {
                cache.examined++;
                if (t.get() == null) {
                    t.dispose();
                    return true;
                }
                return false;
            });
        }

        void dropAll() {
            for (Ticket<K,V> t : deque) {
                t.dispose();
            }
            deque.clear();
        }
    }
}
