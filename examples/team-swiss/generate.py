#!/usr/bin/env python3
"""Generate examples/team-swiss/registrations.xlsx (fictional people only).

    python3 examples/team-swiss/generate.py

A 团体赛 registration workbook for rules/team-swiss.toml: 40 teams of 4 boards, every
third team with one reserve and every seventh with two, columns 序号, 姓名, 性别, 队名,
台次 (a reserve's 台次 is 替补). Seeded, with the workbook's dates fixed, so the file is
the same on every run. Needs openpyxl.
"""

import datetime as dt
import os
import random

import openpyxl

SURNAMES = "王李张刘陈杨黄赵吴周徐孙马朱胡郭何林高罗郑梁谢宋唐许韩冯邓曹彭曾肖田董潘袁蔡蒋余"
GIVEN = "伟强磊军勇杰涛斌超明刚平辉鹏华飞鑫波宇浩凯健俊帆旭宁龙林阳建国峰晨东海志文博轩睿芳娜敏静丽艳"
FEMALE = set("芳娜敏静丽艳")
PLACES = (
    "北京 天津 上海 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南 "
    "广东 海南 四川 贵州 云南 陕西 甘肃 青海 内蒙古 广西 西藏 宁夏 新疆 深圳 厦门 青岛 宁波 大连 "
    "杭州 成都 武汉 南京"
).split()


def main() -> None:
    rng = random.Random(46)
    wb = openpyxl.Workbook()
    ws = wb.active
    ws.title = "报名表"
    ws.append(["序号", "姓名", "性别", "队名", "台次"])
    seen = set()
    n = 0
    for t, place in enumerate(PLACES, start=1):
        reserves = 2 if t % 7 == 0 else 1 if t % 3 == 0 else 0
        for board in range(1, 5 + reserves):
            while True:
                name = rng.choice(SURNAMES) + "".join(rng.choice(GIVEN) for _ in range(rng.choice([1, 2])))
                if name not in seen:
                    seen.add(name)
                    break
            gender = "女" if name[-1] in FEMALE else "男"
            n += 1
            ws.append([n, name, gender, f"{place}队", board if board <= 4 else "替补"])
    fixed = dt.datetime(2026, 12, 5)
    wb.properties.created = fixed
    wb.properties.modified = fixed
    out = os.path.join(os.path.dirname(os.path.abspath(__file__)), "registrations.xlsx")
    wb.save(out)
    print(f"{out}: {n} players in {len(PLACES)} teams")


if __name__ == "__main__":
    main()
