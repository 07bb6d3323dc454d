#!/bin/sh
echo one
echo two
echo three
echo four
echo five
echo six
