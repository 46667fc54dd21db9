"""A small file in each language of the table beyond the first five, written for these tests: what
each defines (kind, parent, name, first and last line), one name to look up, and one call of it."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Case:
    path: str
    language: str
    source: str
    symbols: frozenset[tuple[str, str | None, str, int, int]]  # (kind, parent, name, start, end)
    lookup: str  # a name whose definition must be found exactly
    called: str  # a name called somewhere in the file (a `call` usage)
    imports: tuple[str, ...] = ()


def case(path: str, language: str, source: str, symbols: set, lookup: str, called: str, imports=()) -> Case:
    return Case(path, language, source, frozenset(symbols), lookup, called, tuple(imports))


CASES = [
    case(
        "java/src/main/java/shop/Cart.java",
        "java",
        """package shop;

import java.util.List;

/** A cart of items. */
public class Cart {
    private final List<Item> items;

    public Cart(List<Item> items) {
        this.items = items;
    }

    /** The sum of the prices. */
    public long total() {
        return items.stream().mapToLong(Item::price).sum() + shipping(items.size());
    }

    static long shipping(int count) { return count > 3 ? 0 : 5; }

    interface Visitor {
        void visit(Cart cart);
    }
}
""",
        {
            ("class", None, "Cart", 6, 23),
            ("method", "Cart", "Cart", 9, 11),
            ("method", "Cart", "total", 14, 16),
            ("method", "Cart", "shipping", 18, 18),
            ("interface", "Cart", "Visitor", 20, 22),
            ("method", "Visitor", "visit", 21, 21),
        },
        "total",
        "shipping",
        ["java.util.List"],
    ),
    case(
        "kotlin/Ledger.kt",
        "kotlin",
        """package shop.ledger

import kotlin.math.max

/** A ledger of entries. */
class Ledger(private val entries: MutableList<Long>) {
    fun balance(): Long = entries.sum()

    fun record(amount: Long) {
        entries.add(max(amount, 0))
    }

    companion object {
        fun empty(): Ledger = Ledger(mutableListOf())
    }
}

interface Auditor {
    fun audit(ledger: Ledger): Boolean
}

object Books {
    fun open(): Ledger = Ledger.empty()
}

fun Ledger.describe(): String = "balance " + balance()
""",
        {
            ("class", None, "Ledger", 6, 16),
            ("method", "Ledger", "balance", 7, 7),
            ("method", "Ledger", "record", 9, 11),
            ("method", "Ledger", "empty", 14, 14),
            ("interface", None, "Auditor", 18, 20),
            ("method", "Auditor", "audit", 19, 19),
            ("class", None, "Books", 22, 24),
            ("method", "Books", "open", 23, 23),
            ("method", "Ledger", "describe", 26, 26),
        },
        "record",
        "balance",
        ["kotlin.math.max"],
    ),
    case(
        "scala/Pricing.scala",
        "scala",
        """package shop

import scala.math.BigDecimal

/** Something with a price. */
trait Priced {
  def price: BigDecimal
  def withTax(rate: BigDecimal): BigDecimal = price * (1 + rate)
}

object Pricing {
  def discount(amount: BigDecimal, percent: Int): BigDecimal =
    amount * (100 - percent) / 100
}

final case class Book(title: String, price: BigDecimal) extends Priced {
  def label: String = title + " " + Pricing.discount(price, 10)
}
""",
        {
            ("interface", None, "Priced", 6, 9),
            ("method", "Priced", "price", 7, 7),
            ("method", "Priced", "withTax", 8, 8),
            ("class", None, "Pricing", 11, 14),
            ("method", "Pricing", "discount", 12, 13),
            ("class", None, "Book", 16, 18),
            ("method", "Book", "label", 17, 17),
        },
        "discount",
        "discount",
        ["scala.math.BigDecimal"],
    ),
    case(
        "c/ring.c",
        "c",
        """#include <stdlib.h>
#include "ring.h"

#define RING_MIN(a, b) ((a) < (b) ? (a) : (b))

/* A ring buffer of bytes. */
typedef struct ring_s {
  unsigned char* data;
  size_t size;
} ring_t;

static size_t ring_wrap(const ring_t* ring, size_t index) {
  return index % ring->size;
}

/* Copies up to n bytes out of the ring. */
size_t ring_read(ring_t* ring, unsigned char* out, size_t n) {
  size_t count = RING_MIN(n, ring->size);
  for (size_t i = 0; i < count; i++) out[i] = ring->data[ring_wrap(ring, i)];
  return count;
}
""",
        {
            ("macro", None, "RING_MIN", 4, 4),
            ("class", None, "ring_t", 7, 10),
            ("class", None, "ring_s", 7, 10),
            ("function", None, "ring_wrap", 12, 14),
            ("function", None, "ring_read", 17, 21),
        },
        "ring_read",
        "ring_wrap",
        ["stdlib.h", "ring.h"],
    ),
    case(
        "cpp/include/shop/inventory.hpp",
        "cpp",
        """#pragma once
#include <map>
#include <string>

namespace shop {

/** Stock levels by product. */
class Inventory {
 public:
  void add(const std::string& sku, int count);
  int count(const std::string& sku) const { return levels_.at(sku); }

 private:
  std::map<std::string, int> levels_;
};

template <typename T>
T clamp(T value, T low, T high) {
  return value < low ? low : (value > high ? high : value);
}

}  // namespace shop

void shop::Inventory::add(const std::string& sku, int count) {
  levels_[sku] = clamp(levels_[sku] + count, 0, 1000);
}
""",
        {
            ("class", None, "Inventory", 8, 15),
            ("method", "Inventory", "add", 10, 10),
            ("method", "Inventory", "count", 11, 11),
            ("function", None, "clamp", 17, 20),
            ("method", "shop::Inventory", "add", 24, 26),
        },
        "clamp",
        "clamp",
        ["map", "string"],
    ),
    case(
        "csharp/Orders.cs",
        "csharp",
        """using System;
using System.Collections.Generic;

namespace Shop.Orders
{
    /// <summary>Places orders.</summary>
    public class OrderService
    {
        public Order Place(string sku) { return new Order(sku, Clock.Now()); }

        private static decimal Tax(decimal amount) => amount * 0.2m;
    }

    public record Order(string Sku, DateTime At);

    public interface IClock { DateTime Now(); }
}
""",
        {
            ("class", None, "OrderService", 7, 12),
            ("method", "OrderService", "Place", 9, 9),
            ("method", "OrderService", "Tax", 11, 11),
            ("class", None, "Order", 14, 14),
            ("interface", None, "IClock", 16, 16),
            ("method", "IClock", "Now", 16, 16),
        },
        "Place",
        "Now",
        ["System", "System.Collections.Generic"],
    ),
    case(
        "swift/Sources/Shop/Basket.swift",
        "swift",
        """import Foundation

/// A basket of products.
public final class Basket {
    private var items: [String] = []

    public init() {}

    /// Adds a product.
    public func add(_ sku: String) {
        items.append(normalized(sku))
    }
}

public protocol Checkout {
    func pay(_ basket: Basket) -> Bool
}

extension Basket {
    func normalized(_ sku: String) -> String { sku.uppercased() }
}

struct Receipt { let total: Int }
""",
        {
            ("class", None, "Basket", 4, 13),
            ("method", "Basket", "init", 7, 7),
            ("method", "Basket", "add", 10, 12),
            ("interface", None, "Checkout", 15, 17),
            ("method", "Checkout", "pay", 16, 16),
            ("method", "Basket", "normalized", 20, 20),
            ("class", None, "Receipt", 23, 23),
        },
        "normalized",
        "normalized",
        ["Foundation"],
    ),
    case(
        "ruby/lib/shop/coupon.rb",
        "ruby",
        """require "date"
require_relative "money"

module Shop
  # A discount code.
  class Coupon
    def initialize(code, percent)
      @code = code
      @percent = percent
    end

    def apply(amount)
      Money.round(amount * (100 - @percent) / 100)
    end

    def self.parse(text)
      new(*text.split(":"))
    end
  end
end
""",
        {
            ("module", None, "Shop", 4, 20),
            ("class", "Shop", "Coupon", 6, 19),
            ("method", "Coupon", "initialize", 7, 10),
            ("method", "Coupon", "apply", 12, 14),
            ("method", "Coupon", "parse", 16, 18),
        },
        "apply",
        "round",
        ["date", "money"],
    ),
    case(
        "php/src/Invoice.php",
        "php",
        """<?php
namespace Shop\\Billing;

use Shop\\Money\\Amount;

/** An invoice for an order. */
final class Invoice implements Payable
{
    public function total(): Amount
    {
        return Amount::sum($this->lines());
    }

    private function lines(): array { return []; }
}

interface Payable { public function total(): Amount; }

function invoice_number(int $id): string { return sprintf("INV-%06d", $id); }
""",
        {
            ("class", None, "Invoice", 7, 15),
            ("method", "Invoice", "total", 9, 12),
            ("method", "Invoice", "lines", 14, 14),
            ("interface", None, "Payable", 17, 17),
            ("method", "Payable", "total", 17, 17),
            ("function", None, "invoice_number", 19, 19),
        },
        "invoice_number",
        "lines",
        ["Shop\\Money\\Amount"],
    ),
    case(
        "elixir/lib/shop/cart.ex",
        "elixir",
        """defmodule Shop.Cart do
  @moduledoc "A shopping cart."
  alias Shop.Price

  @doc "Adds an item."
  def add(cart, item), do: [item | cart]

  def total([]), do: 0
  def total([item | rest]), do: Price.of(item) + total(rest)

  defp empty?(cart), do: cart == []

  defmacro with_cart(do: block) do
    quote do: unquote(block)
  end
end
""",
        {
            ("module", "Shop", "Cart", 1, 16),
            ("function", "Shop.Cart", "add", 6, 6),
            ("function", "Shop.Cart", "total", 8, 9),
            ("function", "Shop.Cart", "empty?", 11, 11),
            ("macro", "Shop.Cart", "with_cart", 13, 15),
        },
        "total",
        "of",
        ["Shop.Price"],
    ),
    case(
        "lua/shop/stock.lua",
        "lua",
        """local util = require("shop.util")

local M = {}

--- Reserves items.
function M.reserve(sku, count)
  return util.take(sku, M.available(sku), count)
end

function M.available(sku)
  return util.levels[sku] or 0
end

local function log(message) print(message) end

return M
""",
        {
            ("module", None, "M", 3, 3),
            ("function", "M", "reserve", 6, 8),
            ("function", "M", "available", 10, 12),
            ("function", None, "log", 14, 14),
        },
        "reserve",
        "available",
        ["shop.util"],
    ),
    case(
        "shell/scripts/deploy.sh",
        "shell",
        """#!/usr/bin/env bash
source ./lib/common.sh

# Builds the release archive.
build_release() {
  tar -czf "release-$1.tgz" dist
}

function deploy {
  build_release "$VERSION"
  upload "release-$VERSION.tgz"
}
""",
        {("function", None, "build_release", 5, 7), ("function", None, "deploy", 9, 12)},
        "deploy",
        "build_release",
        ["./lib/common.sh"],
    ),
    case(
        "haskell/src/Shop/Price.hs",
        "haskell",
        """module Shop.Price (Price, discount) where

import Data.List (foldl')

-- | A price in cents.
newtype Price = Price Int deriving (Eq, Show)

class Priced a where
  priceOf :: a -> Price

-- | Takes a percentage off.
discount :: Int -> Price -> Price
discount percent (Price cents) = Price (cents * (100 - percent) `div` 100)

total :: [Price] -> Price
total = foldl' add (Price 0)
  where add (Price a) (Price b) = Price (a + b)
""",
        {
            ("module", "Shop", "Price", 1, 1),
            ("class", None, "Price", 6, 6),
            ("interface", None, "Priced", 8, 9),
            ("method", "Priced", "priceOf", 9, 9),
            ("function", None, "discount", 12, 13),
            ("function", None, "total", 15, 17),
        },
        "discount",
        "foldl'",
        ["Data.List"],
    ),
    case(
        "zig/src/queue.zig",
        "zig",
        """const std = @import("std");

/// A queue of jobs.
pub const Queue = struct {
    items: std.ArrayList(u32),

    /// Adds a job.
    pub fn push(self: *Queue, job: u32) !void {
        try self.items.append(validate(job));
    }
};

fn validate(job: u32) u32 {
    return job;
}
""",
        {
            ("class", None, "Queue", 4, 11),
            ("method", "Queue", "push", 8, 10),
            ("function", None, "validate", 13, 15),
        },
        "push",
        "validate",
        ["std"],
    ),
    case(
        "dart/lib/wallet.dart",
        "dart",
        """import 'package:shop/money.dart';

/// A wallet of coins.
class Wallet {
  final List<int> coins;
  Wallet(this.coins);

  /// The sum of the coins.
  int balance() {
    return coins.fold(0, add);
  }

  static int add(int a, int b) => a + b;
}

String describe(Wallet wallet) => 'balance ${wallet.balance()}';
""",
        {
            ("class", None, "Wallet", 4, 14),
            ("method", "Wallet", "Wallet", 6, 6),
            ("method", "Wallet", "balance", 9, 11),
            ("method", "Wallet", "add", 13, 13),
            ("function", None, "describe", 16, 16),
        },
        "balance",
        "balance",
        ["package:shop/money.dart"],
    ),
    case(
        "ocaml/lib/tally.ml",
        "ocaml",
        """open Printf

(** A tally of counts. *)
type tally = { mutable count : int }

let create () = { count = 0 }

let bump t = t.count <- t.count + 1; report t

and report t = printf "%d\\n" t.count

module Store = struct
  let save t = report t
end
""",
        {
            ("module", None, "Tally", 1, 14),  # the file is the module `Tally`
            ("type", "Tally", "tally", 4, 4),
            ("function", "Tally", "create", 6, 6),
            ("function", "Tally", "bump", 8, 8),
            ("function", "Tally", "report", 10, 10),
            ("module", "Tally", "Store", 12, 14),
            ("function", "Store", "save", 13, 13),
        },
        "bump",
        "report",
        ["Printf"],
    ),
    case(
        "zig/src/Counter.zig",
        "zig",
        """//! A counter of events: the file is a struct with fields.
const std = @import("std");
const Counter = @This();

count: u64 = 0,

pub fn bump(self: *Counter) void {
    self.count = saturate(self.count + 1);
}

fn saturate(n: u64) u64 {
    return @min(n, 1000);
}

pub fn Pair(comptime T: type) type {
    return struct { a: T, b: T };
}

test "bump counts" {
    var c: Counter = .{};
    c.bump();
    try std.testing.expectEqual(1, c.count);
}
""",
        {
            ("class", None, "Counter", 1, 23),
            ("method", "Counter", "bump", 7, 9),
            ("method", "Counter", "saturate", 11, 13),
            ("method", "Counter", "Pair", 15, 17),
            ("method", "Counter", "bump counts", 19, 23),
        },
        "Pair",
        "saturate",
        ["std"],
    ),
    case(
        "objc/Shelf/SHLedger.m",
        "objc",
        """#import <Foundation/Foundation.h>
#import "SHLedger.h"

#define SH_LIMIT 100

@interface SHLedger ()
@property (nonatomic, copy) NSArray *entries;
- (NSInteger)clampedTotal:(NSInteger)total limit:(NSInteger)limit;
@end

static NSInteger SHClamp(NSInteger value, NSInteger limit) {
    return value > limit ? limit : value;
}

@implementation SHLedger

- (NSInteger)clampedTotal:(NSInteger)total limit:(NSInteger)limit {
    return SHClamp(total, limit);
}

+ (instancetype)ledgerWithEntries:(NSArray *)entries {
    SHLedger *ledger = [[self alloc] init];
    ledger.entries = entries;
    return ledger;
}

- (NSInteger)total {
    return [self clampedTotal:self.entries.count limit:SH_LIMIT];
}

@end
""",
        {
            ("macro", None, "SH_LIMIT", 4, 4),
            ("class", None, "SHLedger", 6, 9),
            ("method", "SHLedger", "entries", 7, 7),
            ("method", "SHLedger", "clampedTotal", 8, 8),
            ("function", None, "SHClamp", 11, 13),
            ("class", None, "SHLedger", 15, 31),
            ("method", "SHLedger", "clampedTotal", 17, 19),
            ("method", "SHLedger", "ledgerWithEntries", 21, 25),
            ("method", "SHLedger", "total", 27, 29),
        },
        "ledgerWithEntries",
        "clampedTotal",
        ["Foundation/Foundation.h", "SHLedger.h"],
    ),
    case(
        "perl/lib/Shop/Cart.pm",
        "perl",
        """package Shop::Cart;
use strict;
use List::Util qw(sum);

# The sum of the prices.
sub total {
    my ($self) = @_;
    return sum(map { $_->{price} } @{ $self->{items} });
}

sub _rounded { my ($self) = @_; return int($self->total + 0.5); }

package Shop::Coupon;

sub apply {
    my ($self, $cart) = @_;
    return $cart->total * 0.9;
}

1;
""",
        {
            ("module", "Shop", "Cart", 1, 11),
            ("function", "Shop::Cart", "total", 6, 9),
            ("function", "Shop::Cart", "_rounded", 11, 11),
            ("module", "Shop", "Coupon", 13, 20),
            ("function", "Shop::Coupon", "apply", 15, 18),
        },
        "total",
        "sum",
        ["strict", "List::Util"],
    ),
    case(
        "fortran/src/ledger.f90",
        "fortran",
        """! Accounts and their balances.
module ledger
  use iso_fortran_env, only: real64
  implicit none

  type :: account
    real(real64) :: balance = 0
  end type account

  interface total
    module procedure total_of
  end interface total

contains

  subroutine deposit(self, amount)
    type(account), intent(inout) :: self
    real(real64), intent(in) :: amount
    self%balance = capped(self%balance + amount)
  end subroutine deposit

  pure function capped(x) result(y)
    real(real64), intent(in) :: x
    real(real64) :: y
    y = min(x, 1.0d6)
  end function capped

  function total_of(accounts) result(s)
    type(account), intent(in) :: accounts(:)
    real(real64) :: s
    s = sum(accounts%balance)
  end function total_of
end module ledger

program bank
  use ledger
  type(account) :: a
  call deposit(a, 10.0d0)
end program bank
""",
        {
            ("module", None, "ledger", 2, 33),
            ("class", "ledger", "account", 6, 8),
            ("interface", "ledger", "total", 10, 12),
            ("function", "ledger", "deposit", 16, 20),
            ("function", "ledger", "capped", 22, 26),
            ("function", "ledger", "total_of", 28, 32),
            ("module", None, "bank", 35, 39),
        },
        "deposit",
        "deposit",
        ["iso_fortran_env", "ledger"],
    ),
    case(
        "groovy/src/main/groovy/shop/Basket.groovy",
        "groovy",
        """package shop

import groovy.transform.CompileStatic

/** A basket of items. */
@CompileStatic
class Basket {
    List<Item> items = []

    BigDecimal total() {
        items.sum { it.price } ?: 0
    }

    static Basket of(List<Item> items) {
        new Basket(items: items)
    }
}

interface Priced {
    BigDecimal price()
}

def report(Basket basket) {
    println(basket.total())
}

def discount = { BigDecimal x -> x * 0.9 }
""",
        {
            ("class", None, "Basket", 6, 17),
            ("method", "Basket", "total", 10, 12),
            ("method", "Basket", "of", 14, 16),
            ("interface", None, "Priced", 19, 21),
            ("method", "Priced", "price", 20, 20),
            ("function", None, "report", 23, 25),
            ("function", None, "discount", 27, 27),
        },
        "report",
        "total",
        ["groovy.transform.CompileStatic"],
    ),
    case(
        "julia/src/Tally.jl",
        "julia",
        """\"\"\"
Tallies of events.
\"\"\"
module Tally

using LinearAlgebra

export Counter, bump!

"A counter of events."
mutable struct Counter
    count::Int
end

abstract type Event end

"Count one more event."
function bump!(c::Counter)
    c.count = saturate(c.count + 1)
    return c
end

saturate(n) = min(n, 1000)

macro counted(ex)
    return esc(ex)
end

end # module
""",
        {
            ("module", None, "Tally", 4, 29),
            ("class", "Tally", "Counter", 11, 13),
            ("type", "Tally", "Event", 15, 15),
            ("function", "Tally", "bump!", 18, 21),
            ("function", "Tally", "saturate", 23, 23),
            ("macro", "Tally", "counted", 25, 27),
        },
        "saturate",
        "saturate",
        ["LinearAlgebra"],
    ),
    case(
        "fsharp/src/Billing.fs",
        "fsharp",
        """namespace Shop.Billing

open System

/// An invoice line.
type Line = { Amount: decimal; Qty: int }

type Shape =
    | Circle of float
    | Square of float

type Invoice(lines: Line list) =
    member this.Total = lines |> List.sumBy (fun l -> l.Amount * decimal l.Qty)
    member this.Describe() = sprintf "%M" (rounded this.Total)

module Pricing =
    /// Round to cents.
    let rounded (x: decimal) = Math.Round(x, 2)

    let private half x = x / 2m
""",
        {
            ("module", "Shop", "Billing", 1, 20),
            ("class", "Shop.Billing", "Line", 6, 6),
            ("type", "Shop.Billing", "Shape", 8, 10),
            ("class", "Shop.Billing", "Invoice", 12, 14),
            ("method", "Invoice", "Total", 13, 13),
            ("method", "Invoice", "Describe", 14, 14),
            ("module", "Shop.Billing", "Pricing", 16, 20),
            ("function", "Pricing", "rounded", 18, 18),
            ("function", "Pricing", "half", 20, 20),
        },
        "rounded",
        "rounded",
        ["System"],
    ),
]
